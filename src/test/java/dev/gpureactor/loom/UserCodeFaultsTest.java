package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;
import dev.gpureactor.parker.LineParker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.gpureactor.loom.PortErrorTest.joinOnVirtual;
import static dev.gpureactor.loom.Poll.until;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The user's code that the library runs beside its own, misbehaving: a point key whose {@code hashCode} throws, an
 * {@code onComplete} executor that fails, a readback that joins its own future, a parker's turn that meets a
 * checked throwable nobody declared. Each costs only its own wait or action, coded or reported, never the parker
 * and the other waits it watches, and nothing waits for ever. (The ports' own faults: {@link PortErrorTest}.)
 */
class UserCodeFaultsTest {
    private static final Duration HANG_GUARD = Duration.ofSeconds(30);

    /** A point key that answers {@code hashCode} {@code good} times, then throws. */
    private static final class FlakyKey {
        private final AtomicInteger good;

        FlakyKey(int good) { this.good = new AtomicInteger(good); }

        @Override public int hashCode() {
            if (good.getAndDecrement() <= 0) throw new IllegalStateException("the key's hashCode threw");
            return 7;
        }

        @Override public boolean equals(Object o) { return o == this; }
    }

    @Test
    void a_point_key_that_throws_at_the_start_refuses_the_wait_coded() {
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).build();
             CompletionLine line = CompletionLine.allocate()) {
            CompletionPort never = new CompletionPort() {
                @Override public boolean query() { return false; }
                @Override public void block() { }
                @Override public void arm() { }
                @Override public boolean park(long boundNanos) { return false; }
            };
            ReactorException e = assertThrows(ReactorException.class,
                    () -> r.await(new MemoryDescriptor(line, Slot.of(0), 1), never, () -> 1, new FlakyKey(0)));
            assertEquals(ErrorCode.InvalidArgument, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("pointKey") && e.getMessage().contains(FlakyKey.class.getName()), e.getMessage());
            assertEquals(0, r.registrations(), "no wait was made");
        }
    }

    @Test
    void a_point_key_that_throws_later_costs_only_its_observations_and_the_parker_lives_on() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(2).warnings(warnings::add).build();
             SimDevice dev = SimDevice.open()) {
            CountDownLatch gate = new CountDownLatch(1);
            SimStream held = dev.stream().hold(gate);
            SimStream.Signal healthy = held.signal();
            GpuFuture<String> good = r.await(healthy.descriptor(), healthy.port(), () -> "good");
            SimStream s = dev.stream();
            assertSame(r.parkerOf(held.line()), r.parkerOf(s.line()), "one parker: its death would fail the held wait too");
            // Each key answers the start's estimate, then throws when its wait's outcome is observed. A wait the
            // parker's turn did not observe (one its registrar found done, or an overslept sleep's) meets no
            // throw, so waits follow each other until the sink hears of one.
            for (int i = 0; i < 200 && warnings.stream().noneMatch(UserCodeFaultsTest::aboutTheKey); i++) {
                SimStream.Signal sig = s.compute(Duration.ofMillis(1)).signal();
                GpuFuture<String> keyed = r.await(sig.descriptor(), sig.port(), () -> "keyed", new FlakyKey(1));
                assertEquals("keyed", joinOnVirtual(keyed), "the wait itself completes; only its observation is lost");
                Thread.sleep(5); // the reporter thread delivers the parker's warnings
            }
            assertTrue(warnings.stream().anyMatch(UserCodeFaultsTest::aboutTheKey), "the sink heard of the key (" + warnings.size() + " warnings)");
            gate.countDown();
            assertEquals("good", joinOnVirtual(good), "the other wait of the parker completes (before: ParkerDied)");
            assertEquals(0, r.stats().parkersDied());
        }
    }

    @Test
    void an_on_complete_executor_that_fails_still_runs_the_action() throws Exception {
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).build();
             SimDevice dev = SimDevice.open()) {
            for (boolean doneFirst : new boolean[]{false, true}) {
                SimStream.Signal sig = dev.stream().compute(Duration.ofMillis(1)).signal();
                GpuFuture<String> f = r.await(sig.descriptor(), sig.port(), () -> "v");
                if (doneFirst) assertEquals("v", f.join(HANG_GUARD));
                AtomicInteger executes = new AtomicInteger();
                Executor broken = task -> {
                    executes.incrementAndGet();
                    throw new IllegalStateException("the executor's own bug");
                };
                CountDownLatch ran = new CountDownLatch(1);
                AtomicReference<Object> seen = new AtomicReference<>();
                f.onComplete((v, t) -> {
                    seen.set(v);
                    ran.countDown();
                }, broken);
                // Before: the action never ran and nothing said so (0 of 20 runs).
                assertTrue(ran.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS), "the action never ran");
                assertEquals("v", seen.get());
                assertEquals(1, executes.get(), "the executor was asked once");
            }
        }
    }

    @Test
    void what_a_failing_on_complete_executor_threw_goes_to_the_dispatching_threads_handler() throws Exception {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        Thread me = Thread.currentThread();
        Thread.UncaughtExceptionHandler before = me.getUncaughtExceptionHandler();
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).build();
             SimDevice dev = SimDevice.open()) {
            me.setUncaughtExceptionHandler((t, e) -> reported.add(e));
            SimStream.Signal sig = dev.stream().compute(Duration.ofMillis(1)).signal();
            GpuFuture<String> f = r.await(sig.descriptor(), sig.port(), () -> "v");
            assertEquals("v", f.join(HANG_GUARD));
            IllegalStateException bug = new IllegalStateException("the executor's own bug");
            CountDownLatch ran = new CountDownLatch(1);
            f.onComplete((v, t) -> ran.countDown(), task -> { throw bug; }); // done: dispatched here, on this thread
            assertTrue(ran.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS), "the action never ran");
            assertEquals(List.of(bug), reported, "the executor's throw reached this thread's handler");
        } finally {
            me.setUncaughtExceptionHandler(before);
        }
    }

    @Test
    void a_readback_that_joins_its_own_future_fails_coded_at_once() throws Exception {
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).build();
             SimDevice dev = SimDevice.open()) {
            for (boolean timed : new boolean[]{false, true}) {
                SimStream.Signal sig = dev.stream().compute(Duration.ofMillis(1)).signal();
                AtomicReference<GpuFuture<String>> self = new AtomicReference<>();
                GpuFuture<String> f = r.await(sig.descriptor(), sig.port(), () -> timed ? self.get().join(Duration.ofHours(1)) : self.get().join());
                self.set(f);
                long start = System.nanoTime();
                // Before: the untimed join waited for itself for ever (every joiner with it), the timed one for its limit.
                CompletionException e = assertThrows(CompletionException.class, () -> f.join(HANG_GUARD));
                ReactorException coded = assertInstanceOf(ReactorException.class, e.getCause(), "the readback's own exception");
                assertEquals(ErrorCode.InvalidArgument, coded.code(), coded.getMessage());
                assertTrue(coded.getMessage().contains("own readback"), coded.getMessage());
                assertTrue(System.nanoTime() - start < HANG_GUARD.toNanos() / 2, "it failed at once");
                assertTrue(f.isDone());
            }
        }
    }

    @Test
    void a_turn_that_meets_an_undeclared_checked_throwable_fails_its_waits_coded_and_the_parker_thread_lives_on() throws Exception {
        ParkerFaults faults = new ParkerFaults();
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(2).plan("flag:park_us=100,backstop_us=1000").parkerHooks(faults).build();
             SimDevice dev = SimDevice.open()) {
            HeldWait held = HeldWait.on(r, dev);
            LineParker p = held.parker();
            AtomicReference<Object> out = new AtomicReference<>();
            Thread joiner = Thread.ofVirtual().start(() -> {
                try {
                    out.set(held.future().join(HANG_GUARD));
                } catch (Throwable x) {
                    out.set(x);
                }
            });
            until("the joiner waits", () -> joiner.getState() == Thread.State.TIMED_WAITING);
            AtomicBoolean once = new AtomicBoolean();
            faults.pass.put(p, () -> {
                if (once.compareAndSet(false, true)) throw PortErrorTest.sneaky(new java.io.IOException("undeclared, from the loop"));
            });
            assertTrue(joiner.join(HANG_GUARD.plusSeconds(5)), "the joiner never returned");
            ReactorException e = assertInstanceOf(ReactorException.class, out.get());
            assertEquals(ErrorCode.ParkerDied, e.code(), e.getMessage());
            // Before: the throwable left the loop and ended the thread; the parker was dead, not handling it.
            assertTrue(p.isLive(), "the parker thread handled it and lives on");
            SimStream.Signal next = held.stream().signal();
            GpuFuture<Integer> g = r.await(next.descriptor(), next.port(), () -> 2);
            assertSame(p, r.parkerOf(held.stream().line()), "the same parker serves the line");
            held.gate().countDown();
            assertEquals(2, joinOnVirtual(g));
        }
    }

    private static boolean aboutTheKey(Warning w) {
        return w.code() == ErrorCode.InvalidArgument && w.message().contains("pointKey");
    }
}
