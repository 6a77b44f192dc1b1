package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Interrupts, timeouts and cancellations land at random points in the middle of waits, against a
 * device that completes at random times, stands still, or fails. Afterwards no registration is
 * left behind, and every future has exactly one terminal state, the one its observers saw (except
 * a caller's own {@code Timeout} or {@code Interrupted}, which end only that caller's wait) and one
 * its action allows:
 *
 * <ul>
 *   <li>a value only with the readback run exactly once; no value with the readback never run;
 *   <li>{@code Cancelled} only where someone cancelled, and {@code cancel()} returned true exactly
 *       then; a timed or interrupted caller sees {@code Timeout} / {@code Interrupted} (its flag
 *       still set) while the future goes on and ends as the device says; {@code Backend} only on
 *       the failing stream;
 *   <li>asking again gives the same answer (a future is one wait).
 * </ul>
 *
 * <p>Seeds are fixed so a failure names its case; the threads add their own interleavings. While
 * the held stream still stands still, the registrations must already equal the futures still
 * pending: cancelled waits leave their parker at once, not when the device finally stores, and a
 * wait whose caller timed out or was interrupted stays registered until the device speaks.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AbandonStressTest {
    private static final long GUARD_S = 60;
    private static final int NORMAL = 4, HELD = NORMAL, FAILING = NORMAL + 1, STREAMS = NORMAL + 2;

    enum Action { JOIN, JOIN_TIMED, GET_TIMED, CANCEL, INTERRUPT, CANCEL_ALONE, NONE }

    /** One future, what is done to it, and what was seen. */
    static final class Case {
        final int id;
        final int stream;
        final Action action;
        final long delayNanos;
        final GpuFuture<Long> future;
        volatile String observed;
        volatile Boolean cancelReturned;
        volatile boolean interruptFlag;

        Case(int id, int stream, Action action, long delayNanos, GpuFuture<Long> future) {
            this.id = id;
            this.stream = stream;
            this.action = action;
            this.delayNanos = delayNanos;
            this.future = future;
        }

        @Override
        public String toString() {
            return "case " + id + " " + action + " on stream " + stream + " after " + delayNanos + " ns: observed "
                    + observed + ", final " + terminal(future) + ", cancel() " + cancelReturned;
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2", "3", "4"})
    void abandoned_waits_leave_nothing_behind_and_every_future_ends_once(long seed) throws Exception {
        Random rnd = new Random(seed);
        int n = 400;
        try (GpuReactor r = GpuReactor.builder().carriers(2).build(); SimDevice dev = SimDevice.open()) {
            List<SimStream> streams = new ArrayList<>();
            for (int i = 0; i < STREAMS; i++) streams.add(dev.stream());
            CountDownLatch held = new CountDownLatch(1);
            streams.get(HELD).compute(Duration.ZERO, () -> GpuExecutorServiceTest.awaitQuietly(held));
            int failAt = 1 + rnd.nextInt(n / STREAMS / 2); // well inside the ~n/STREAMS signals it gets
            int failingSignals = 0;

            AtomicIntegerArray readbacks = new AtomicIntegerArray(n);
            List<Case> cases = new ArrayList<>();
            List<Thread> actors = new ArrayList<>(), joiners = new ArrayList<>();
            for (int id = 0; id < n; id++) {
                int si = rnd.nextInt(STREAMS);
                SimStream s = streams.get(si);
                if (si < NORMAL && rnd.nextBoolean()) s.compute(Duration.ofNanos(rnd.nextInt(1_500_000)));
                if (si == FAILING && ++failingSignals == failAt) s.compute(Duration.ofMillis(1)).fail("injected");
                SimStream.Signal sig = s.signal();
                int me = id;
                GpuFuture<Long> f = r.await(sig.descriptor(), sig.port(), () -> {
                    readbacks.incrementAndGet(me);
                    return expected(me);
                });
                Action action = Action.values()[rnd.nextInt(Action.values().length)];
                Case c = new Case(id, si, action, rnd.nextInt(2_000_000), f);
                cases.add(c);
                start(r, c, actors, joiners);
            }

            for (Thread t : actors) assertTrue(t.join(Duration.ofSeconds(GUARD_S)), "an abandoning thread hung");
            for (int i = 0; i < STREAMS; i++) {
                if (i == HELD) continue;
                SimStream s = streams.get(i);
                awaitTrue(s::isIdle, "stream " + i + " ran everything");
            }
            // The held stream still stands still: every other wait has ended, and what is registered
            // is exactly what still waits (abandoned waits left their parker without the device).
            awaitTrue(() -> pendingOffHeld(cases) == 0 && r.registrations() == pending(cases),
                    () -> "registrations " + r.registrations() + ", pending " + pending(cases) + ", pending off the held stream "
                            + pendingOffHeld(cases));

            held.countDown();
            for (Thread t : joiners) assertTrue(t.join(Duration.ofSeconds(GUARD_S)), "a joiner hung");
            awaitTrue(() -> r.registrations() == 0, () -> "registrations left: " + r.registrations());

            int values = 0;
            for (Case c : cases) {
                if (c.observed == null) c.observed = outcome(c.future); // nobody joined: ask now
                terminal(c.future); // a wait whose only caller left early runs its readback when first asked
                check(c, readbacks.get(c.id));
                if (c.observed.startsWith("value:")) values++;
            }
            assertTrue(values > 0, "some waits completed");
            assertEquals(0, r.registrations());
        }
    }

    private static long expected(int id) { return 1_000_000L + id; }

    private static long pending(List<Case> cases) {
        return cases.stream().filter(c -> c.future.rawState() == GpuFuture.PENDING).count();
    }

    /** Starts the joiner and the abandoning actor the case's action calls for. */
    private static void start(GpuReactor r, Case c, List<Thread> actors, List<Thread> joiners) {
        GpuFuture<Long> f = c.future;
        long d = c.delayNanos;
        switch (c.action) {
            case JOIN -> joiners.add(r.startVirtualThread(() -> c.observed = outcome(f)));
            case JOIN_TIMED -> actors.add(r.startVirtualThread(() -> {
                try {
                    c.observed = "value:" + f.join(Duration.ofNanos(d));
                } catch (ReactorException e) {
                    c.observed = e.code().name();
                }
            }));
            case GET_TIMED -> actors.add(r.startVirtualThread(() -> {
                try {
                    c.observed = "value:" + f.get(d, TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    c.observed = "Timeout";
                } catch (ExecutionException e) {
                    c.observed = e.getCause() instanceof ReactorException re ? re.code().name() : "unexpected " + e;
                } catch (InterruptedException e) {
                    c.observed = "unexpected " + e;
                }
            }));
            case CANCEL -> {
                joiners.add(r.startVirtualThread(() -> c.observed = outcome(f)));
                actors.add(r.startVirtualThread(() -> {
                    LockSupport.parkNanos(d);
                    c.cancelReturned = f.cancel(d % 2 == 0);
                }));
            }
            case INTERRUPT -> {
                Thread joiner = r.startVirtualThread(() -> {
                    c.observed = outcome(f);
                    c.interruptFlag = Thread.currentThread().isInterrupted();
                });
                joiners.add(joiner);
                actors.add(r.startVirtualThread(() -> {
                    LockSupport.parkNanos(d);
                    joiner.interrupt();
                }));
            }
            case CANCEL_ALONE -> actors.add(r.startVirtualThread(() -> {
                LockSupport.parkNanos(d);
                c.cancelReturned = f.cancel(false);
            }));
            case NONE -> { }
        }
    }

    /** {@code value:v} or the coded failure's name, from an untimed join. */
    private static String outcome(GpuFuture<Long> f) {
        try {
            return "value:" + f.join();
        } catch (ReactorException e) {
            return e.code().name();
        }
    }

    /** The future's one terminal state, read from its state alone. */
    static String terminal(GpuFuture<Long> f) {
        return switch (f.state()) {
            case SUCCESS -> "value:" + f.resultNow();
            case CANCELLED -> "Cancelled";
            case FAILED -> String.valueOf(f.failureCode());
            case RUNNING -> "running";
        };
    }

    private static void check(Case c, int readbacks) {
        String fin = terminal(c.future);
        // A caller's own limit or interrupt ends only its wait: it may see Timeout / Interrupted,
        // which the future itself never ends in; any other observation is the final state.
        boolean ownEnd = (c.action == Action.JOIN_TIMED || c.action == Action.GET_TIMED) && c.observed.equals("Timeout")
                || c.action == Action.INTERRUPT && c.observed.equals("Interrupted");
        if (!ownEnd) assertEquals(fin, c.observed, "observers and state agree: " + c);
        assertEquals(fin, outcome(c.future), "asking again gives the same answer: " + c);
        Set<String> allowed = switch (c.action) {
            case JOIN, NONE, JOIN_TIMED, GET_TIMED, INTERRUPT -> Set.of("value", "Backend");
            case CANCEL, CANCEL_ALONE -> Set.of("value", "Backend", "Cancelled");
        };
        String kind = fin.startsWith("value:") ? "value" : fin;
        assertTrue(allowed.contains(kind), "an outcome its action cannot produce: " + c);
        if (kind.equals("value")) {
            assertEquals("value:" + expected(c.id), fin, c.toString());
            assertEquals(1, readbacks, "a completed wait ran its readback exactly once: " + c);
        } else {
            assertEquals(0, readbacks, "a wait that did not complete never ran its readback: " + c);
        }
        if (kind.equals("Backend")) assertEquals(FAILING, c.stream, "only the failing stream fails: " + c);
        if (c.action == Action.CANCEL || c.action == Action.CANCEL_ALONE) {
            assertNotNull(c.cancelReturned, c.toString());
            assertEquals(kind.equals("Cancelled"), c.cancelReturned, "cancel() is true exactly when it won: " + c);
            assertEquals(kind.equals("Cancelled"), c.future.isCancelled(), c.toString());
        }
        if (c.observed.equals("Interrupted")) assertTrue(c.interruptFlag, "the interrupted joiner keeps its flag: " + c);
        assertTrue(c.future.isDone(), c.toString());
        futureViewsAgree(c.future, kind, c.toString());
    }

    /** The {@link Future} views of the one terminal state, as {@link Future}'s contract words them. */
    static void futureViewsAgree(GpuFuture<Long> f, String kind, String what) {
        switch (kind) {
            case "value" -> {
                assertEquals(Future.State.SUCCESS, f.state(), what);
                assertEquals(f.resultNow(), assertDoesNotThrow(() -> f.get(), what));
                assertThrows(IllegalStateException.class, f::exceptionNow, what);
            }
            case "Cancelled" -> {
                assertEquals(Future.State.CANCELLED, f.state(), what);
                CancellationException e = assertThrows(CancellationException.class, f::get, "get() of a cancelled future: " + what);
                assertEquals(ErrorCode.Cancelled, assertInstanceOf(ReactorException.class, e.getCause(), what).code());
                assertThrows(CancellationException.class, () -> f.get(1, TimeUnit.SECONDS), what);
                assertThrows(IllegalStateException.class, f::exceptionNow, "exceptionNow() of a cancelled future: " + what);
                assertThrows(IllegalStateException.class, f::resultNow, what);
                assertEquals(ErrorCode.Cancelled, f.failureCode(), "the coded terminal outcome: " + what);
            }
            default -> {
                assertEquals(Future.State.FAILED, f.state(), what);
                ExecutionException e = assertThrows(ExecutionException.class, f::get, what);
                assertEquals(kind, assertInstanceOf(ReactorException.class, e.getCause(), what).code().name());
                assertEquals(kind, assertInstanceOf(ReactorException.class, f.exceptionNow(), what).code().name());
                assertThrows(IllegalStateException.class, f::resultNow, what);
                assertEquals(kind, f.failureCode().name(), what);
            }
        }
    }

    private static long pendingOffHeld(List<Case> cases) {
        return cases.stream().filter(c -> c.stream != HELD && c.future.rawState() == GpuFuture.PENDING).count();
    }

    private static void awaitTrue(java.util.function.BooleanSupplier cond, String what) throws InterruptedException {
        awaitTrue(cond, () -> what);
    }

    private static void awaitTrue(java.util.function.BooleanSupplier cond, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
        while (!cond.getAsBoolean() && System.nanoTime() < end) Thread.sleep(1);
        assertTrue(cond.getAsBoolean(), what);
    }
}
