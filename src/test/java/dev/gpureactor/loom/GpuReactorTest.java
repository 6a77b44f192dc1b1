package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

class GpuReactorTest {
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);

    private static void awaitQuiet(GpuReactor r) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (r.registrations() != 0 && System.nanoTime() < end) Thread.sleep(5);
    }

    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"NAIVE", "GPU_REACTOR"})
    void a_joined_future_sees_the_payload_the_kernel_wrote(ExecutorKind kind) throws Exception {
        try (GpuReactor r = GpuReactor.builder().kind(kind).carriers(2).build(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            int[] payload = new int[1];
            s.compute(Duration.ofMillis(2), () -> payload[0] = 42);
            SimStream.Signal sig = s.signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> payload[0]);
            Future<Integer> got = r.newExecutor().submit(() -> f.join());
            assertEquals(42, got.get(60, TimeUnit.SECONDS));
            assertEquals(Future.State.SUCCESS, f.state());
            awaitQuiet(r);
            assertEquals(0, r.registrations());
        }
    }

    @Test
    void a_hundred_thousand_futures_complete_exactly_once_with_their_results() throws Exception {
        int lines = 4, perSlot = 100_000 / (lines * 8);
        try (GpuReactor r = GpuReactor.builder().carriers(2).build(); SimDevice dev = SimDevice.open();
             var exec = r.newExecutor()) {
            List<SimStream> streams = new ArrayList<>();
            for (int i = 0; i < lines * 8; i++) streams.add(dev.stream());
            List<GpuFuture<Long>> futures = new ArrayList<>();
            AtomicInteger readbacks = new AtomicInteger();
            for (int k = 0; k < perSlot; k++) {
                for (int i = 0; i < streams.size(); i++) {
                    SimStream s = streams.get(i);
                    SimStream.Signal sig = s.signal();
                    long expect = (long) i << 32 | sig.descriptor().target();
                    futures.add(r.await(sig.descriptor(), sig.port(), () -> {
                        readbacks.incrementAndGet();
                        return expect;
                    }));
                }
            }
            AtomicLong sum = new AtomicLong();
            AtomicInteger done = new AtomicInteger();
            ConcurrentHashMap<Long, Boolean> seen = new ConcurrentHashMap<>();
            CountDownLatch all = new CountDownLatch(futures.size());
            for (GpuFuture<Long> f : futures) {
                exec.execute(() -> {
                    long v = f.join();
                    assertNull(seen.put(v, true), "result seen twice: " + v);
                    sum.addAndGet(v & 0xffffffffL);
                    done.incrementAndGet();
                    all.countDown();
                });
            }
            assertTrue(all.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS), "only " + done.get() + " joined");
            assertEquals(futures.size(), done.get());
            assertEquals(futures.size(), readbacks.get(), "each readback runs exactly once");
            long perSlotSum = (long) perSlot * (perSlot + 1) / 2;
            assertEquals(perSlotSum * streams.size(), sum.get());
            awaitQuiet(r);
            assertEquals(0, r.registrations());
        }
    }

    @Test
    void cancel_removes_the_registration_and_a_callers_timeout_or_interrupt_leaves_it() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(2).build(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofSeconds(30)); // nothing completes while we test
            SimStream.Signal a = s.signal(), b = s.signal(), c = s.signal();
            GpuFuture<Void> cancelled = r.await(a.descriptor(), a.port());
            GpuFuture<Void> timed = r.await(b.descriptor(), b.port());
            GpuFuture<Void> interrupted = r.await(c.descriptor(), c.port());
            assertEquals(3, r.registrations());

            assertTrue(cancelled.cancel(false));
            assertEquals(ErrorCode.Cancelled, assertThrows(ReactorException.class, cancelled::join).code());

            ReactorException te = assertThrows(ReactorException.class, () -> timed.join(Duration.ofMillis(20)));
            assertEquals(ErrorCode.Timeout, te.code());
            GpuFuture<Void> got = r.await(s.signal().descriptor(), a.port());
            assertThrows(TimeoutException.class, () -> got.get(1, TimeUnit.MILLISECONDS));

            CountDownLatch parked = new CountDownLatch(1);
            Thread vt = r.startVirtualThread(() -> {
                parked.countDown();
                ReactorException e = assertThrows(ReactorException.class, interrupted::join);
                assertEquals(ErrorCode.Interrupted, e.code());
                assertTrue(Thread.currentThread().isInterrupted(), "join() keeps the interrupt flag");
            });
            parked.await();
            Thread.sleep(20);
            vt.interrupt();
            vt.join(HANG_GUARD.toMillis());
            assertFalse(vt.isAlive());
            assertFalse(interrupted.isDone(), "an interrupt ends only that caller's wait");
            assertFalse(timed.isDone(), "a timeout ends only that caller's wait");

            assertFalse(got.isDone(), "a timeout ends only that caller's wait");
            // Every one of the three stays with the parker, as join(Duration) says: the interrupted virtual
            // joiner's, and the platform joiners' (this thread): a joiner with a limit does not take the plan over.
            assertEquals(3, r.registrations(), "the waits whose callers timed out or were interrupted are still registered");
            assertTrue(timed.cancel(false));
            assertTrue(interrupted.cancel(false));
            assertTrue(got.cancel(false));
            awaitQuiet(r);
            assertEquals(0, r.registrations(), "cancelled waits are removed from their parker");
        }
    }

    @Test
    void a_failed_stream_fails_exactly_its_own_waiters() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan("flag:park_us=100,backstop_us=500").build();
             SimDevice dev = SimDevice.open()) {
            SimStream bad = dev.stream(), good = dev.stream();
            bad.compute(Duration.ofMillis(5)).fail("injected launch failure");
            List<GpuFuture<Void>> badOnes = new ArrayList<>(), goodOnes = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                SimStream.Signal sb = bad.signal();
                badOnes.add(r.await(sb.descriptor(), sb.port()));
                good.compute(Duration.ofMillis(1));
                SimStream.Signal sg = good.signal();
                goodOnes.add(r.await(sg.descriptor(), sg.port()));
            }
            for (GpuFuture<Void> f : badOnes) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
                ReactorException re = assertInstanceOf(ReactorException.class, e.getCause());
                assertEquals(ErrorCode.Backend, re.code());
                assertTrue(re.getMessage().contains("SIM_ERROR_LAUNCH_FAILED"), re.getMessage());
            }
            for (GpuFuture<Void> f : goodOnes) assertNull(f.get(60, TimeUnit.SECONDS));
            awaitQuiet(r);
            assertEquals(0, r.registrations());
        }
    }

    @Test
    void closing_a_line_fails_its_waiters_with_line_closed() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(1).build(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofSeconds(30));
            SimStream.Signal sig = s.signal();
            GpuFuture<Void> f = r.await(sig.descriptor(), sig.port());
            s.line().close();
            assertEquals(ErrorCode.LineClosed, assertThrows(ReactorException.class, () -> f.join(Duration.ofSeconds(60))).code());
            GpuFuture<Void> late = r.await(sig.descriptor(), sig.port());
            assertEquals(ErrorCode.LineClosed, late.failureCode());
            awaitQuiet(r);
            assertEquals(0, r.registrations());
        }
    }

    @Test
    void closing_the_reactor_fails_pending_waits_and_refuses_new_ones() throws Exception {
        SimDevice dev = SimDevice.open();
        SimStream s = dev.stream();
        s.compute(Duration.ofSeconds(30));
        SimStream.Signal sig = s.signal();
        GpuReactor r = GpuReactor.builder().carriers(1).build();
        GpuFuture<Void> f = r.await(sig.descriptor(), sig.port());
        r.close();
        assertEquals(ErrorCode.ShutDown, assertThrows(ReactorException.class, () -> f.join(Duration.ofSeconds(60))).code());
        assertEquals(ErrorCode.ShutDown, r.await(s.signal().descriptor(), sig.port()).failureCode());
        dev.close();
    }

    @Test
    void a_virtual_thread_blocked_in_join_lets_others_run_on_one_carrier() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(1).build(); SimDevice dev = SimDevice.open();
             var exec = r.newExecutor()) {
            SimStream s = dev.stream();
            CountDownLatch otherRan = new CountDownLatch(1);
            s.compute(Duration.ofMillis(20));
            SimStream.Signal sig = s.signal();
            GpuFuture<Void> f = r.await(sig.descriptor(), sig.port());
            Future<?> waiter = exec.submit(() -> f.join());
            Future<?> other = exec.submit(otherRan::countDown);
            assertTrue(otherRan.await(60, TimeUnit.SECONDS));
            other.get();
            waiter.get(60, TimeUnit.SECONDS);
            assertTrue(r.stats().polls() >= 2);
        }
    }

    @Test
    void to_completable_future_and_on_complete_run_off_the_parker() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(2).build(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofMillis(2));
            SimStream.Signal sig = s.signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 20);
            ConcurrentHashMap<String, String> threads = new ConcurrentHashMap<>();
            int result = f.toCompletableFuture()
                    .thenApply(v -> { threads.put("a", Thread.currentThread().getName()); return v + 1; })
                    .thenApplyAsync(v -> v * 2, r.callbackExecutor())
                    .thenCombine(java.util.concurrent.CompletableFuture.completedFuture(0), Integer::sum)
                    .get(60, TimeUnit.SECONDS);
            assertEquals(42, result);
            assertFalse(threads.get("a").startsWith("gar-parker"), threads.toString());
            CountDownLatch called = new CountDownLatch(1);
            f.onComplete((v, t) -> { threads.put("cb", Thread.currentThread().getName()); called.countDown(); });
            assertTrue(called.await(60, TimeUnit.SECONDS));
            assertFalse(threads.get("cb").startsWith("gar-parker"));
        }
    }
}
