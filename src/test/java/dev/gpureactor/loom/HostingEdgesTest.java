package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static dev.gpureactor.loom.HostingTest.carrierOf;
import static dev.gpureactor.loom.HostingTest.parked;
import static dev.gpureactor.loom.HostingTest.standingBy;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The hosted path at the edges of the contract: a guest a parker runs while the line's other waits
 * went to the thread standing by (leader/follower), or while the lines were idle, that closes the
 * reactor, fails with throwing handlers, is interrupted, sleeps, or outlives its parker's death.
 * Latches and hang guards only, no timing assertions.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostingEdgesTest {
    private static final Duration GUARD = Duration.ofSeconds(60);

    private static GpuReactor hostingReactor(List<Warning> warnings) {
        return GpuReactor.builder().hosting(true).carriers(1).warnings(warnings::add).build();
    }

    /** A guest hosted while wait {@code waitB} of the same line is pending with its joiner parked (leader/follower). */
    private record Hosted(Thread guest, String carrier, GpuFuture<Void> waitB, CountDownLatch goB, Thread joinerB) { }

    /**
     * Wait B on {@code b} is registered and joined (its store held on {@code goB}); then a guest woken by a
     * wait on {@code a} runs {@code body} on the parker that woke it, which first handed its loop to the
     * thread standing by, since B waits. Returns once the guest runs {@code body}.
     */
    private static Hosted hostWhileAnotherWaits(GpuReactor r, SimStream a, SimStream b, Runnable body) throws InterruptedException {
        assertSame(a.line(), b.line(), "two streams of one line");
        CountDownLatch goB = new CountDownLatch(1);
        SimStream.Signal sigB = b.hold(goB).signal();
        GpuFuture<Void> waitB = r.await(sigB.descriptor(), sigB.port());
        Thread joinerB = r.startVirtualThread(() -> {
            try {
                waitB.join();
            } catch (ReactorException expectedInSomeTests) {
                // the test reads waitB's state
            }
        });
        parked(joinerB);

        CountDownLatch goA = new CountDownLatch(1), running = new CountDownLatch(1);
        SimStream.Signal sigA = a.hold(goA).signal();
        GpuFuture<Void> waitA = r.await(sigA.descriptor(), sigA.port());
        AtomicReference<String> carrier = new AtomicReference<>();
        Thread guest = r.startVirtualThread(() -> {
            waitA.join();
            carrier.set(carrierOf(Thread.currentThread()));
            running.countDown();
            body.run();
        });
        parked(guest);
        standingBy(r, a.line());
        goA.countDown();
        assertTrue(running.await(GUARD.toSeconds(), TimeUnit.SECONDS));
        assertTrue(carrier.get().startsWith("gar-parker-"), "the guest runs on the parker: " + carrier.get());
        return new Hosted(guest, carrier.get(), waitB, goB, joinerB);
    }

    private static long parkerThreads(CompletionLine line) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("gar-parker-" + line.name())).count();
    }

    private static void until(String what, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + GUARD.toNanos();
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() - end > 0) fail("gave up waiting until " + what);
            Thread.sleep(2);
        }
    }

    /** Whether {@code boom} is {@code e} or in its cause chain. */
    private static boolean carries(Throwable e, Throwable boom) {
        for (Throwable c = e; c != null; c = c.getCause()) if (c == boom) return true;
        return false;
    }

    @Test
    void a_hosted_guest_whose_uncaught_handlers_throw_fails_no_wait_of_the_loop_it_handed_over() throws Exception {
        // The guest's own exception goes to its handler; a handler that throws (the JVM tolerates that)
        // makes the continuation's run throw on the parker thread, whose handler throws again. The loop
        // was already the standby's: nothing of that may reach the loop's error handling, which would
        // fail the standby's waits ParkerDied and run the loop on a second thread.
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        RuntimeException boom = new RuntimeException("the guest's own failure");
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        List<Thread> handledOn = new CopyOnWriteArrayList<>();
        GpuReactor r = hostingReactor(warnings);
        try (SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream();
            Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
                if (!carries(e, boom)) return; // not ours: quiet
                handledOn.add(t);
                throw new IllegalStateException("a handler that throws", e);
            });
            Hosted h = hostWhileAnotherWaits(r, a, b, () -> { throw boom; });
            assertTrue(h.guest().join(GUARD));
            until("the guest's failure reached the handlers", () -> !handledOn.isEmpty());

            h.goB().countDown(); // the loop's owner (the former standby) sees this store
            assertTrue(h.joinerB().join(GUARD));
            assertEquals(Future.State.SUCCESS, h.waitB().state(), "the other wait of the line: " + h.waitB());
            assertEquals(0, r.stats().parkersDied(), r.stats().toString());
            assertTrue(warnings.stream().noneMatch(w -> w.code() == ErrorCode.ParkerDied), warnings.toString());
            until("the line keeps at most a parker and a thread standing by", () -> parkerThreads(a.line()) <= 2);
            assertEquals(0, r.registrations());

            // The line still serves waits.
            SimStream.Signal next = a.compute(Duration.ofMillis(1)).signal();
            GpuFuture<Void> f = r.await(next.descriptor(), next.port());
            Thread joiner = r.startVirtualThread(f::join);
            assertTrue(joiner.join(GUARD));
            assertEquals(Future.State.SUCCESS, f.state());
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
            r.close();
        }
    }
    @ParameterizedTest
    @EnumSource(CarrierPolicy.class)
    void a_carrier_goes_on_when_a_virtual_threads_uncaught_handlers_throw(CarrierPolicy policy) throws Exception {
        // What a hosted guest's parker does, a carrier does too: the thread's failure reaches the
        // handlers, and a handler that throws ends neither the carrier nor its pool's service.
        RuntimeException boom = new RuntimeException("a task's own failure");
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        List<Thread> handledOn = new CopyOnWriteArrayList<>();
        try (GpuReactor r = GpuReactor.builder().hosting(false).carrierPolicy(policy).carriers(1).build()) {
            Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
                if (!carries(e, boom)) return;
                handledOn.add(t);
                throw new IllegalStateException("a handler that throws", e);
            });
            for (int i = 0; i < 3; i++) {
                Thread failing = r.startVirtualThread(() -> { throw boom; });
                assertTrue(failing.join(GUARD));
            }
            until("the failures reached the handlers", () -> handledOn.size() >= 3);
            AtomicBoolean ran = new AtomicBoolean();
            Thread next = r.startVirtualThread(() -> ran.set(true));
            assertTrue(next.join(GUARD), "the pool's one carrier still runs threads");
            assertTrue(ran.get());
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }
}
