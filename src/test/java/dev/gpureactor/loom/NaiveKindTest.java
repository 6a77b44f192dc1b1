package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The {@code naive} executor kind: no parker; the joining (virtual) thread runs the wait plan
 * itself and settles the future. Every plan shape completes on a virtual thread; a time limit and
 * an interrupt end an inline wait with their coded outcome; the deadline estimator learns from the
 * inline waits.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NaiveKindTest {
    private static final long GUARD_S = 60;
    private static final String PREDICT = "+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8";

    private static GpuReactor naive(String plan) {
        GpuReactor r = GpuReactor.builder().kind(ExecutorKind.NAIVE).carriers(2).plan(plan).build();
        assertEquals(ExecutorKind.NAIVE, r.kind());
        assertTrue(r.warnings().isEmpty(), r.warnings().toString());
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"flag:park_us=100,backstop_us=1000" + PREDICT, "flag:park_us=50,backstop_us=500",
            "poll" + PREDICT, "poll", "block"})
    void a_join_on_a_virtual_thread_runs_the_plan_inline_and_completes(String plan) throws Exception {
        try (GpuReactor r = naive(plan); SimDevice dev = SimDevice.open(); GpuExecutorService exec = r.newExecutor()) {
            SimStream s = dev.stream();
            int[] payload = new int[1];
            s.compute(Duration.ofMillis(5), () -> payload[0] = 42);
            SimStream.Signal sig = s.signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> payload[0]);
            assertEquals(0, r.registrations(), "the naive kind registers nothing");
            Future<String> joined = exec.submit(() -> {
                Thread me = Thread.currentThread();
                int v = f.join();
                return v + (me.isVirtual() && me.toString().contains("@gar-carrier-") ? " on our carrier" : " elsewhere: " + me);
            });
            assertEquals("42 on our carrier", joined.get(GUARD_S, TimeUnit.SECONDS));
            assertEquals(Future.State.SUCCESS, f.state());
            assertEquals(42, f.join(), "a settled future answers again without waiting");
            assertEquals(0, r.stats().parkersStarted(), "no parker thread: the joiner waited itself");
            assertEquals(0, r.registrations());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"flag:park_us=100,backstop_us=1000" + PREDICT, "poll" + PREDICT})
    void the_estimator_learns_from_inline_waits(String plan) throws Exception {
        try (GpuReactor r = naive(plan); SimDevice dev = SimDevice.open(); GpuExecutorService exec = r.newExecutor()) {
            SimStream s = dev.stream();
            String point = "kernel-A";
            assertEquals(0, r.points().estimate(point).sampleCount(), "a cold point");
            int rounds = 5;
            for (int i = 0; i < rounds; i++) {
                CountDownLatch gate = new CountDownLatch(1);
                s.compute(Duration.ofMillis(2), () -> GpuExecutorServiceTest.awaitQuietly(gate));
                SimStream.Signal sig = s.signal();
                // The device is held while the future is made, so no wait takes the no-wait fast path.
                GpuFuture<Long> f = r.await(sig.descriptor(), sig.port(), () -> sig.descriptor().target(), point);
                assertEquals(sig.descriptor().target(), exec.submit(() -> {
                    gate.countDown();
                    return f.join();
                }).get(GUARD_S, TimeUnit.SECONDS));
            }
            assertEquals(rounds, r.points().estimate(point).sampleCount(), "every inline wait fed the estimator");
            assertTrue(r.points().estimate(point).predictedNanos().isPresent());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"flag:park_us=100,backstop_us=1000" + PREDICT, "poll"})
    void a_time_limit_ends_only_that_callers_inline_wait(String plan) throws Exception {
        try (GpuReactor r = naive(plan); SimDevice dev = SimDevice.open(); GpuExecutorService exec = r.newExecutor()) {
            SimStream s = dev.stream();
            CountDownLatch gate = new CountDownLatch(1);
            s.compute(Duration.ZERO, () -> GpuExecutorServiceTest.awaitQuietly(gate));
            SimStream.Signal a = s.signal(), b = s.signal();
            GpuFuture<Long> viaJoin = r.await(a.descriptor(), a.port(), () -> 1L);
            GpuFuture<Long> viaGet = r.await(b.descriptor(), b.port(), () -> 2L);

            Future<ErrorCode> joined = exec.submit(() -> {
                try {
                    viaJoin.join(Duration.ofMillis(20));
                    return null;
                } catch (ReactorException e) {
                    return e.code();
                }
            });
            assertEquals(ErrorCode.Timeout, joined.get(GUARD_S, TimeUnit.SECONDS));
            assertFalse(viaJoin.isDone(), "a caller's limit ends only that caller's wait");

            Future<Throwable> got = exec.submit(() -> {
                try {
                    viaGet.get(20, TimeUnit.MILLISECONDS);
                    return null;
                } catch (Exception e) {
                    return e;
                }
            });
            assertInstanceOf(TimeoutException.class, got.get(GUARD_S, TimeUnit.SECONDS),
                    "Future.get(timeout) reports a timeout as TimeoutException, under every kind");
            assertFalse(viaGet.isDone(), "a caller's limit ends only that caller's wait");

            gate.countDown(); // the device finishes later: both waits complete for everyone (as FutureTask's would)
            assertEquals(1L, exec.submit(() -> viaJoin.join()).get(GUARD_S, TimeUnit.SECONDS));
            assertEquals(2L, viaGet.get(GUARD_S, TimeUnit.SECONDS));
            assertNull(viaJoin.failureCode());
        }
    }

    @Test
    void an_interrupt_ends_only_that_callers_inline_wait_and_keeps_the_flag() throws Exception {
        try (GpuReactor r = naive("flag:park_us=100,backstop_us=1000" + PREDICT); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            CountDownLatch gate = new CountDownLatch(1);
            s.compute(Duration.ZERO, () -> GpuExecutorServiceTest.awaitQuietly(gate));
            SimStream.Signal sig = s.signal();
            GpuFuture<Void> f = r.await(sig.descriptor(), sig.port());
            AtomicReference<Object> seen = new AtomicReference<>();
            CountDownLatch inside = new CountDownLatch(1);
            Thread vt = r.startVirtualThread(() -> {
                inside.countDown();
                try {
                    f.join();
                    seen.set("completed");
                } catch (ReactorException e) {
                    seen.set(e.code() + " flag=" + Thread.currentThread().isInterrupted());
                }
            });
            assertTrue(inside.await(GUARD_S, TimeUnit.SECONDS));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
            // Wait until the plan is running (the thread parks or sleeps inside it), then interrupt.
            while (vt.getState() == Thread.State.RUNNABLE && System.nanoTime() < end) Thread.onSpinWait();
            vt.interrupt();
            assertTrue(vt.join(Duration.ofSeconds(GUARD_S)));
            assertEquals("Interrupted flag=true", seen.get());
            assertFalse(f.isDone(), "an interrupt ends only that caller's wait");
            gate.countDown();
            assertNull(f.get(GUARD_S, TimeUnit.SECONDS), "the wait goes on without the interrupted joiner and completes");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"flag:park_us=100,backstop_us=1000" + PREDICT, "poll"})
    void a_cancel_ends_an_inline_wait_while_the_device_still_runs(String plan) throws Exception {
        try (GpuReactor r = naive(plan); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            CountDownLatch gate = new CountDownLatch(1);
            s.compute(Duration.ZERO, () -> GpuExecutorServiceTest.awaitQuietly(gate));
            SimStream.Signal sig = s.signal();
            AtomicInteger queries = new AtomicInteger();
            CompletionPort counted = new CompletionPort() { // the device's port, counting the plan's queries
                @Override public boolean query() { queries.incrementAndGet(); return sig.port().query(); }
                @Override public void block() throws InterruptedException { sig.port().block(); }
                @Override public void arm() { sig.port().arm(); }
                @Override public boolean park(long boundNanos) throws InterruptedException { return sig.port().park(boundNanos); }
            };
            GpuFuture<Void> f = r.await(sig.descriptor(), counted);
            AtomicReference<Object> seen = new AtomicReference<>();
            Thread vt = r.startVirtualThread(() -> {
                try {
                    f.join();
                    seen.set("completed");
                } catch (ReactorException e) {
                    seen.set(e.code());
                }
            });
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
            while (queries.get() < 2 && System.nanoTime() < end) Thread.sleep(1);
            assertTrue(queries.get() >= 2, "the joiner is inside the plan (it queried, then went on waiting)");
            assertTrue(f.cancel(false));
            assertTrue(vt.join(Duration.ofSeconds(GUARD_S)), "the joiner running the plan stopped although the device still runs");
            assertEquals(ErrorCode.Cancelled, seen.get());
            assertTrue(f.isCancelled());
            assertFalse(s.isIdle(), "the device was still held when the wait ended");
            gate.countDown();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"flag:park_us=100,backstop_us=1000" + PREDICT, "poll", "block"})
    void a_completion_stage_of_an_inline_wait_completes_without_a_joiner(String plan) throws Exception {
        try (GpuReactor r = naive(plan); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofMillis(2));
            SimStream.Signal sig = s.signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 7);
            CountDownLatch called = new CountDownLatch(1);
            AtomicReference<Object> cb = new AtomicReference<>();
            f.onComplete((v, t) -> {
                cb.set(t == null ? v : t);
                called.countDown();
            });
            assertEquals(7, f.toCompletableFuture().get(GUARD_S, TimeUnit.SECONDS), "nobody joins: the stage runs the plan");
            assertTrue(called.await(GUARD_S, TimeUnit.SECONDS));
            assertEquals(7, cb.get());
            assertEquals(Future.State.SUCCESS, f.state());
        }
    }
}
