package dev.gpureactor.backend.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stream's ends: a kernel body that throws an {@code Error} fails the stream as a runtime
 * exception does, and a close ends the worker (a compute in progress included) and fails the ports
 * of the signals it dropped. The bounds only turn a hang into a failure.
 */
class SimStreamTest {
    private static final long GUARD_S = 10;
    /** Longer than a close's own join plus the guard, so a compute a close cannot end outlasts the test's look. */
    private static final Duration LONG_COMPUTE = Duration.ofSeconds(30);

    /** Runs {@code wait} on its own platform thread and returns what it threw (null if it returned), failing after the guard. */
    private static Throwable outcome(ThrowingRunnable wait) throws Exception {
        CompletableFuture<Throwable> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon(true).start(() -> {
            try {
                wait.run();
                f.complete(null);
            } catch (Throwable t) {
                f.complete(t);
            }
        });
        try {
            return f.get(GUARD_S, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return fail("the wait did not end within " + GUARD_S + " s");
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static ReactorException coded(ErrorCode code, Throwable t) {
        if (!(t instanceof ReactorException e)) return fail("expected a coded " + code + ", got " + t);
        assertEquals(code, e.code(), e.getMessage());
        return e;
    }

    private static String name(SimStream s) { return "sim stream " + s.line().name() + "/" + s.slot().index(); }

    // ---- a kernel body that throws ----

    static List<Supplier<Throwable>> errors() {
        return List.of(() -> new AssertionError("kernel assert"), StackOverflowError::new, () -> new IllegalStateException("kernel bug"));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void a_kernel_body_that_throws_fails_the_stream(int which) throws Exception {
        Throwable thrown = errors().get(which).get();
        try (SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ZERO, () -> {
                if (thrown instanceof Error e) throw e;
                throw (RuntimeException) thrown;
            });
            SimStream.Signal sig = s.signal();
            ReactorException e = coded(ErrorCode.Backend, outcome(() -> sig.port().block()));
            assertTrue(e.getMessage().contains(thrown.getClass().getName()), e.getMessage());
            assertTrue(s.isFailed());
            // Every later query reports it too.
            assertEquals(e, assertThrows(ReactorException.class, () -> s.signal().port().query()));
            assertEquals(e, assertThrows(ReactorException.class, () -> sig.port().query()));
        }
    }

    // ---- close ----

    @Test
    void a_close_fails_the_ports_of_the_signals_it_dropped_and_wakes_their_waiters() throws Exception {
        try (SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            SimStream.Signal ran = s.signal();
            assertEquals(null, outcome(() -> ran.port().block()));
            CountDownLatch gate = new CountDownLatch(1);
            s.hold(gate);
            SimStream.Signal dropped = s.signal();
            SimStream.Signal later = s.signal();

            CompletableFuture<Throwable> blocked = new CompletableFuture<>();
            CompletableFuture<Object> parked = new CompletableFuture<>();
            Thread blocker = Thread.ofPlatform().daemon(true).start(() -> {
                try {
                    dropped.port().block();
                    blocked.complete(null);
                } catch (Throwable t) {
                    blocked.complete(t);
                }
            });
            Thread parker = Thread.ofPlatform().daemon(true).start(() -> {
                try {
                    parked.complete(later.port().park(TimeUnit.MINUTES.toNanos(5)));
                } catch (Throwable t) {
                    parked.complete(t);
                }
            });
            awaitWaiting(blocker);
            awaitWaiting(parker);

            s.close();

            Throwable b = blocked.get(GUARD_S, TimeUnit.SECONDS);
            ReactorException e = coded(ErrorCode.ShutDown, b);
            assertEquals(List.of(name(s)), e.args());
            assertEquals(false, parked.get(GUARD_S, TimeUnit.SECONDS), "a parked waiter wakes (early) when the stream closes");
            assertEquals(ErrorCode.ShutDown, assertThrows(ReactorException.class, () -> dropped.port().query()).code());
            assertEquals(ErrorCode.ShutDown, assertThrows(ReactorException.class, () -> later.port().query()).code());
            assertFalse(s.isFailed(), "a close is not a stream failure");
            assertTrue(ran.port().query(), "a signal the stream executed still answers done");
            assertTrue(ran.descriptor().isComplete());
            assertFalse(dropped.descriptor().isComplete());
        }
    }

    private static void awaitWaiting(Thread t) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() - end > 0) fail(t + " never waited: " + t.getState());
            Thread.sleep(1);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void a_close_ends_a_compute_in_progress(boolean spinning) throws Exception {
        try (SimDevice dev = spinning ? SimDevice.spinning() : SimDevice.open()) {
            SimStream s = dev.stream();
            Thread worker = startLongCompute(s);
            SimStream.Signal after = s.signal();
            s.close();
            worker.join(TimeUnit.SECONDS.toMillis(GUARD_S));
            assertFalse(worker.isAlive(), "the worker still runs the compute after the close");
            assertEquals(ErrorCode.ShutDown, assertThrows(ReactorException.class, () -> after.port().query()).code());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void a_device_close_ends_its_streams_computes(boolean spinning) throws Exception {
        SimDevice dev = spinning ? SimDevice.spinning() : SimDevice.open();
        Thread w1 = startLongCompute(dev.stream());
        Thread w2 = startLongCompute(dev.stream());
        dev.close();
        w1.join(TimeUnit.SECONDS.toMillis(GUARD_S));
        w2.join(TimeUnit.SECONDS.toMillis(GUARD_S));
        assertFalse(w1.isAlive() || w2.isAlive(), "a stream worker still runs its compute after the device closed");
    }

    @Test
    void another_threads_interrupt_of_the_worker_ends_neither_its_gate_nor_the_stream() throws Exception {
        try (SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            AtomicReference<Thread> worker = new AtomicReference<>();
            s.compute(Duration.ZERO, () -> worker.set(Thread.currentThread())).signal().port().block();
            CountDownLatch gate = new CountDownLatch(1);
            SimStream.Signal held = s.hold(gate).signal();
            awaitWaiting(worker.get());
            worker.get().interrupt(); // as a framework that interrupts every thread might: while the worker holds a gate
            Thread.sleep(20);
            assertFalse(held.port().query(), "the interrupt let the gate through");
            gate.countDown();
            held.port().block();
            assertTrue(held.descriptor().isComplete(), "the held signal was stored");
            worker.get().interrupt(); // and while it waits for work
            awaitWaiting(worker.get());
            SimStream.Signal later = s.compute(Duration.ofMillis(1), () -> { }).signal();
            later.port().block(); // ShutDown if the worker took the interrupt for a close
            assertTrue(later.descriptor().isComplete());
            assertFalse(s.isFailed());
        }
    }

    /** Queues a compute far longer than the test and returns the worker once it is inside it. */
    private static Thread startLongCompute(SimStream s) throws InterruptedException {
        AtomicReference<Thread> worker = new AtomicReference<>();
        CountDownLatch inside = new CountDownLatch(1);
        s.compute(LONG_COMPUTE, () -> {
            worker.set(Thread.currentThread());
            inside.countDown();
        });
        assertTrue(inside.await(GUARD_S, TimeUnit.SECONDS), "the compute never started");
        return worker.get();
    }
}
