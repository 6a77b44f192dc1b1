package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import java.nio.file.Path;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static dev.gpureactor.loom.Poll.until;
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
        return hostingReactor(warnings, new ParkerFaults());
    }

    private static GpuReactor hostingReactor(List<Warning> warnings, ParkerFaults faults) {
        // The parker sees each store: no carrier between tasks takes the turn (CarrierTurnsTest covers that).
        return GpuReactor.builder().hosting(true).carrierTurns(false).carriers(1).warnings(warnings::add).parkerHooks(faults).build();
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

        AtomicReference<String> carrier = new AtomicReference<>();
        Thread guest = hostOnParker(r, a, carrier, body);
        return new Hosted(guest, carrier.get(), waitB, goB, joinerB);
    }

    /**
     * A guest woken by a wait on {@code a} runs {@code body} on the parker that woke it ({@code carrier}
     * names the thread it ran on). Returns once the guest runs {@code body}.
     */
    private static Thread hostOnParker(GpuReactor r, SimStream a, AtomicReference<String> carrier, Runnable body)
            throws InterruptedException {
        CountDownLatch goA = new CountDownLatch(1), running = new CountDownLatch(1);
        SimStream.Signal sigA = a.hold(goA).signal();
        GpuFuture<Void> waitA = r.await(sigA.descriptor(), sigA.port());
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
        return guest;
    }

    private static long parkerThreads(CompletionLine line) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("gar-parker-" + line.name())).count();
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
            assertTrue(r.warnings().stream().noneMatch(w -> w.code() == ErrorCode.ParkerDied), r.warnings().toString()); // kept as raised
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
    @Test
    void a_carrier_goes_on_when_a_virtual_threads_uncaught_handlers_throw() throws Exception {
        // What a hosted guest's parker does, a carrier does too: the thread's failure reaches the
        // handlers, and a handler that throws ends neither the carrier nor its pool's service.
        RuntimeException boom = new RuntimeException("a task's own failure");
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        List<Thread> handledOn = new CopyOnWriteArrayList<>();
        try (GpuReactor r = GpuReactor.builder().hosting(false).carriers(1).build()) {
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
    @Test
    void closing_the_reactor_while_a_guest_is_hosted_leaves_no_thread() throws Exception {
        // Leader/follower: the standby holds the loop and leaves; idle: close relieves the host, and the
        // standby it hands the loop to leaves. Either way the guest's thread leaves once the guest ends.
        for (boolean otherWait : new boolean[] {true, false}) {
            List<Warning> warnings = new CopyOnWriteArrayList<>();
            GpuReactor r = hostingReactor(warnings);
            AtomicBoolean release = new AtomicBoolean();
            try (SimDevice dev = SimDevice.open()) {
                SimStream a = dev.stream(), b = dev.stream();
                Runnable spin = () -> { while (!release.get()) Thread.onSpinWait(); };
                Hosted h = otherWait ? hostWhileAnotherWaits(r, a, b, spin) : null;
                Thread guest = otherWait ? h.guest() : hostIdle(r, a, spin);
                LineParker p = r.parkerOf(a.line());
                if (otherWait) assertNotSame(h.guest(), p.inbox.loopThread(), "the loop went to the thread standing by");
                r.close(); // the loop's owner leaves; the guest still holds the other parker thread
                assertTrue(p.inbox.isDead());
                if (otherWait) {
                    ReactorException e = assertThrows(ReactorException.class, () -> h.waitB().join(GUARD));
                    assertEquals(ErrorCode.ShutDown, e.code());
                }
                assertEquals(0, r.registrations());
                assertEquals(otherWait ? 0 : 1, r.stats().relieved(), r.stats().toString());
                assertTrue(guest.isAlive(), "close did not wait for the guest (it warns LiveAtClose)");
                assertTrue(warnings.stream().anyMatch(w -> w.code() == ErrorCode.LiveAtClose), warnings.toString());
                release.set(true);
                assertTrue(guest.join(GUARD));
                until("both parker threads of the line left (other wait: " + otherWait + ")", () -> parkerThreads(a.line()) == 0);
                assertTrue(r.carriers().orElseThrow().awaitExit(GUARD), "the carriers leave after the last thread");
                assertEquals(0, r.stats().parkersDied());
            } finally {
                release.set(true);
                r.close();
            }
        }
    }

    @Test
    void a_hosted_guest_that_closes_the_reactor_itself_returns_and_leaves_no_thread() throws Exception {
        // Leader/follower (the line has another wait) and idle (it has none): the guest's close waits
        // (bounded) for a parker whose loop another thread runs, or that close hands to the standby.
        for (boolean otherWait : new boolean[] {true, false}) {
            List<Warning> warnings = new CopyOnWriteArrayList<>();
            GpuReactor r = hostingReactor(warnings);
            try (SimDevice dev = SimDevice.open()) {
                SimStream a = dev.stream(), b = dev.stream();
                CountDownLatch closed = new CountDownLatch(1);
                Runnable body = () -> {
                    r.close();
                    closed.countDown();
                };
                Thread guest;
                GpuFuture<Void> waitB = null;
                if (otherWait) {
                    Hosted h = hostWhileAnotherWaits(r, a, b, body);
                    guest = h.guest();
                    waitB = h.waitB();
                } else {
                    guest = hostIdle(r, a, body);
                }
                assertTrue(closed.await(GUARD.toSeconds(), TimeUnit.SECONDS), "close from the guest returned");
                assertTrue(guest.join(GUARD));
                if (waitB != null) {
                    GpuFuture<Void> w = waitB;
                    ReactorException e = assertThrows(ReactorException.class, () -> w.join(GUARD));
                    assertEquals(ErrorCode.ShutDown, e.code());
                }
                assertTrue(r.parkerOf(a.line()) == null, "close forgot the line's parker");
                until("both parker threads of the line left (other wait: " + otherWait + ")", () -> parkerThreads(a.line()) == 0);
                assertTrue(r.carriers().orElseThrow().awaitExit(GUARD), "the carriers leave after the last thread");
                assertEquals(0, r.registrations());
                assertEquals(otherWait ? 0 : 1, r.stats().relieved(), "only the idle host is relieved, by the close: " + r.stats());
                assertTrue(r.stats().hosted() >= 1, r.stats().toString());
            } finally {
                r.close();
            }
        }
    }

    /** A guest woken by a wait on {@code a} (the line's only wait) runs {@code body} on the parker, which keeps its loop. */
    private static Thread hostIdle(GpuReactor r, SimStream a, Runnable body) throws InterruptedException {
        return hostOnParker(r, a, new AtomicReference<>(), body);
    }

    @Test
    void a_parker_that_dies_while_its_former_owner_hosts_a_guest_moves_the_line_to_a_new_parker_and_leaves_no_thread() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        ParkerFaults faults = new ParkerFaults();
        GpuReactor r = hostingReactor(warnings, faults);
        AtomicBoolean release = new AtomicBoolean();
        AtomicReference<CompletionLine> line = new AtomicReference<>();
        try (SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream();
            line.set(a.line());
            Hosted h = hostWhileAnotherWaits(r, a, b, () -> { while (!release.get()) Thread.onSpinWait(); });
            LineParker p = r.parkerOf(a.line());
            faults.pass.put(p, () -> { throw new InjectedDeath(); }); // the next pass of the loop's owner (the standby) dies
            ReactorException e = assertThrows(ReactorException.class, () -> h.waitB().join(GUARD));
            assertEquals(ErrorCode.ParkerDied, e.code());
            until("the parker left", p.inbox::isDead);
            assertEquals(1, r.stats().parkersDied());
            until("the registrations are back to 0", () -> r.registrations() == 0);
            assertTrue(h.guest().isAlive(), "the guest still holds the former owner");

            // The line's next registration gets a live parker, while the guest still runs.
            // Held until the registration is made: a store before it would take await's fast path (no
            // registration, no new parker), which a 1 ms compute allowed once the guest's spin kept this
            // thread off its core that long.
            CountDownLatch goNext = new CountDownLatch(1);
            SimStream.Signal next = a.hold(goNext).signal();
            GpuFuture<Void> f = r.await(next.descriptor(), next.port());
            LineParker q = r.parkerOf(a.line());
            assertNotSame(p, q);
            goNext.countDown();
            Thread joiner = r.startVirtualThread(f::join);
            assertTrue(joiner.join(GUARD));
            assertEquals(Future.State.SUCCESS, f.state());

            release.set(true);
            assertTrue(h.guest().join(GUARD));
            // The dead parker's two threads leave; the new parker keeps at most its own two.
            until("the dead parker's threads left", () -> parkerThreads(a.line()) <= 2);
        } finally {
            release.set(true);
            r.close();
        }
        until("every parker thread of the line left", () -> parkerThreads(line.get()) == 0);
    }

    /** An Error the parker's loop cannot handle: it ends the thread. */
    private static final class InjectedDeath extends Error {
        private static final long serialVersionUID = 1L;

        InjectedDeath() { super("injected parker death", null, false, false); }
    }

    @Test
    void a_hosted_guest_sees_its_own_thread_locals_scoped_values_and_loader_and_continues_on_a_carrier_after_a_sleep() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        ThreadLocal<String> local = new ThreadLocal<>();
        InheritableThreadLocal<String> inherited = new InheritableThreadLocal<>();
        ScopedValue<String> scoped = ScopedValue.newInstance();
        ClassLoader loader = new ClassLoader(getClass().getClassLoader()) { };
        inherited.set("from the creator");
        try (GpuReactor r = hostingReactor(warnings); SimDevice dev = SimDevice.open()) {
            for (boolean otherWait : new boolean[] {true, false}) {
                SimStream a = dev.stream(), b = dev.stream();
                CountDownLatch goA = new CountDownLatch(1);
                SimStream.Signal sigA = a.hold(goA).signal();
                GpuFuture<Void> waitA = r.await(sigA.descriptor(), sigA.port());
                CountDownLatch goB = new CountDownLatch(1);
                GpuFuture<Void> waitB = null;
                if (otherWait) {
                    SimStream.Signal sigB = b.hold(goB).signal();
                    waitB = r.await(sigB.descriptor(), sigB.port());
                }
                AtomicReference<Thread> self = new AtomicReference<>();
                List<Object> seen = new CopyOnWriteArrayList<>();
                Thread guest = r.threadFactory().newThread(() -> {
                    self.set(Thread.currentThread());
                    local.set("mine");
                    Thread.currentThread().setContextClassLoader(loader);
                    ScopedValue.where(scoped, "bound").run(() -> {
                        waitA.join(); // resumed on the parker that saw the store
                        seen.add(carrierOf(Thread.currentThread()));
                        seen.add(Thread.currentThread() == self.get());
                        seen.add(Thread.currentThread().isVirtual());
                        seen.add(String.valueOf(local.get()));
                        seen.add(String.valueOf(inherited.get()));
                        seen.add(scoped.isBound() ? scoped.get() : "unbound");
                        seen.add(Thread.currentThread().getContextClassLoader() == loader);
                        try {
                            Thread.sleep(1); // a timed park: the guest unmounts, and the unparker resumes it on a carrier
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                        seen.add(carrierOf(Thread.currentThread()));
                        seen.add(String.valueOf(local.get()));
                        seen.add(scoped.isBound() ? scoped.get() : "unbound");
                    });
                });
                guest.start();
                parked(guest);
                standingBy(r, a.line());
                goA.countDown();
                assertTrue(guest.join(GUARD));
                assertEquals(10, seen.size(), seen.toString());
                assertTrue(((String) seen.get(0)).startsWith("gar-parker-"), "hosted: " + seen);
                assertEquals(List.of(true, true, "mine", "from the creator", "bound", true), seen.subList(1, 7), seen.toString());
                assertTrue(((String) seen.get(7)).startsWith("gar-carrier-"), "after its sleep the guest runs on a carrier: " + seen);
                assertEquals(List.of("mine", "bound"), seen.subList(8, 10));
                goB.countDown();
                if (waitB != null) {
                    GpuFuture<Void> w = waitB;
                    Thread joiner = r.startVirtualThread(w::join);
                    assertTrue(joiner.join(GUARD));
                    assertEquals(Future.State.SUCCESS, w.state());
                }
            }
            until("the registrations are back to 0", () -> r.registrations() == 0);
        } finally {
            inherited.remove();
        }
    }

    @Test
    void a_hosted_guest_interrupted_while_it_runs_sees_its_interrupt_and_the_parker_thread_does_not() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        GpuReactor r = hostingReactor(warnings);
        CountDownLatch interrupted = new CountDownLatch(1);
        try (SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream(), c = dev.stream();
            CountDownLatch goC = new CountDownLatch(1);
            SimStream.Signal sigC = c.hold(goC).signal();
            GpuFuture<Void> waitC = r.await(sigC.descriptor(), sigC.port());
            AtomicReference<Object> joinC = new AtomicReference<>();
            AtomicReference<Boolean> flagAfter = new AtomicReference<>();
            Hosted h = hostWhileAnotherWaits(r, a, b, () -> {
                while (!Thread.currentThread().isInterrupted()) Thread.onSpinWait();
                interrupted.countDown();
                try {
                    waitC.join(); // an interrupted join ends this caller's wait, coded
                    joinC.set("returned");
                } catch (ReactorException e) {
                    joinC.set(e.code());
                }
                flagAfter.set(Thread.currentThread().isInterrupted());
            });
            Thread parkerThread = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals(h.carrier())).filter(t -> t != r.parkerOf(a.line()).inbox.loopThread())
                    .findFirst().orElseThrow();
            h.guest().interrupt();
            assertTrue(interrupted.await(GUARD.toSeconds(), TimeUnit.SECONDS));
            assertTrue(h.guest().join(GUARD));
            assertEquals(ErrorCode.Interrupted, joinC.get());
            assertEquals(Boolean.TRUE, flagAfter.get(), "the flag is set again");
            assertTrue(waitC.isPending(), "the wait itself stays pending and watched");
            until("the former host stands by again, its own interrupt clear",
                    () -> r.parkerOf(a.line()).hosting.hasStandby() && !parkerThread.isInterrupted());

            h.goB().countDown();
            goC.countDown();
            assertTrue(h.joinerB().join(GUARD));
            assertEquals(Future.State.SUCCESS, h.waitB().state());
            Thread joiner = r.startVirtualThread(waitC::join);
            assertTrue(joiner.join(GUARD));
            assertEquals(Future.State.SUCCESS, waitC.state());
            until("the registrations are back to 0", () -> r.registrations() == 0);
        } finally {
            r.close();
        }
    }
    /** What {@link PinnedInit}'s initialiser runs (a class of its own: setting it must not initialise PinnedInit). */
    private static final class PinnedBody {
        static volatile Runnable body;
    }

    /** Runs {@link PinnedBody#body} in its class initialiser: a virtual thread that initialises it is pinned until it returns. */
    private static final class PinnedInit {
        static {
            PinnedBody.body.run();
        }

        static void touch() { }
    }

    @Test
    void a_hosted_guest_pinned_in_a_class_initialiser_while_it_waits_on_its_line_leaves_the_line_watched() throws Exception {
        // The guest blocks pinned (a class initialiser) on the parker thread that woke it: its own new
        // wait and the line's other wait are both watched by the thread that took the loop, and the
        // pinned guest is woken on the parker thread it holds (a pinned park parks its carrier).
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        GpuReactor r = hostingReactor(warnings);
        try (SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream(), c = dev.stream();
            AtomicReference<String> pinnedOn = new AtomicReference<>(), resumedOn = new AtomicReference<>();
            CountDownLatch registered = new CountDownLatch(1), goC = new CountDownLatch(1);
            PinnedBody.body = () -> {
                pinnedOn.set(carrierOf(Thread.currentThread()));
                SimStream.Signal sigC = c.hold(goC).signal();
                GpuFuture<Void> waitC = r.await(sigC.descriptor(), sigC.port());
                registered.countDown();
                waitC.join(); // parks pinned: the parker thread itself blocks
                resumedOn.set(carrierOf(Thread.currentThread()));
            };
            Hosted h = hostWhileAnotherWaits(r, a, b, PinnedInit::touch);
            assertTrue(registered.await(GUARD.toSeconds(), TimeUnit.SECONDS));
            assertEquals(h.carrier(), pinnedOn.get(), "the class initialiser runs on the hosting parker thread");

            h.goB().countDown(); // the other wait: seen by the loop's owner while the guest is pinned
            assertTrue(h.joinerB().join(GUARD));
            assertEquals(Future.State.SUCCESS, h.waitB().state());
            assertTrue(h.guest().isAlive(), "the guest is still pinned in its class initialiser");

            goC.countDown(); // the guest's own wait
            assertTrue(h.guest().join(GUARD));
            assertEquals(h.carrier(), resumedOn.get(), "a pinned guest resumes on the thread it holds");
            until("the registrations are back to 0", () -> r.registrations() == 0);
            until("the line keeps at most a parker and a thread standing by", () -> parkerThreads(a.line()) <= 2);
        } finally {
            r.close();
        }
    }
    @Test
    void a_line_closed_while_its_parker_hosts_fails_its_waits_alone_and_the_other_line_goes_on() throws Exception {
        // One parker over two lines. Leader/follower: the guest, hosted while its line has another
        // wait, closes the second line itself. Idle: the second line is closed from outside while the
        // guest runs, which relieves the host.
        for (boolean otherWait : new boolean[] {true, false}) {
            List<Warning> warnings = new CopyOnWriteArrayList<>();
            GpuReactor r = GpuReactor.builder().hosting(true).carrierTurns(false).carriers(1).hardwarePark(false).linesPerParker(2)
                    .warnings(warnings::add).build(); // the parker, not a carrier between tasks, sees the guest's store
            AtomicBoolean release = new AtomicBoolean();
            CompletionLine second = CompletionLine.allocate();
            try (SimDevice dev = SimDevice.open()) {
                SimStream a = dev.stream(), b = dev.stream(), x = dev.stream(second, Slot.of(0));
                CountDownLatch goX = new CountDownLatch(1);
                SimStream.Signal sigX = x.hold(goX).signal();
                GpuFuture<Void> waitX = r.await(sigX.descriptor(), sigX.port());
                LineParker p = r.parkerOf(second);
                if (!otherWait) { // the idle host: the second line has no wait left when the guest is woken
                    goX.countDown();
                    assertNull(waitX.join(GUARD));
                }
                CountDownLatch closedByGuest = new CountDownLatch(1);
                // The guest's close waits for the parker's acknowledgement, so it parks and resumes on a
                // carrier: from then on it must wait without spinning, or on carriers(1) it would starve
                // the later joiner (as a spinning virtual thread starves any pool of one carrier).
                Runnable body = otherWait
                        ? () -> { second.close(); closedByGuest.countDown(); while (!release.get()) LockSupport.parkNanos(1_000_000); }
                        : () -> { while (!release.get()) Thread.onSpinWait(); };
                Hosted h = null;
                Thread guest;
                if (otherWait) {
                    h = hostWhileAnotherWaits(r, a, b, body);
                    guest = h.guest();
                } else {
                    guest = hostIdle(r, a, body);
                }
                assertSame(p, r.parkerOf(a.line()), "one parker over both lines");
                if (otherWait) {
                    assertTrue(closedByGuest.await(GUARD.toSeconds(), TimeUnit.SECONDS));
                    ReactorException e = assertThrows(ReactorException.class, () -> waitX.join(GUARD));
                    assertEquals(ErrorCode.LineClosed, e.code());
                } else {
                    second.close(); // relieves the hosting thread: the standby drains the notice
                    assertEquals(1, r.stats().relieved(), r.stats().toString());
                }
                until("the closed line's watch is dropped", () -> p.slotSizes(second).isEmpty());
                assertTrue(p.isLive(), "the parker goes on for its other line");
                assertTrue(guest.isAlive(), "the guest still runs");
                if (h != null) {
                    h.goB().countDown();
                    assertTrue(h.joinerB().join(GUARD));
                    assertEquals(Future.State.SUCCESS, h.waitB().state());
                }
                SimStream.Signal next = a.compute(Duration.ofMillis(1)).signal();
                GpuFuture<Void> f = r.await(next.descriptor(), next.port());
                Thread joiner = r.startVirtualThread(f::join);
                assertTrue(joiner.join(GUARD));
                assertEquals(Future.State.SUCCESS, f.state());
                release.set(true);
                assertTrue(guest.join(GUARD));
                until("the registrations are back to 0", () -> r.registrations() == 0);
                assertEquals(0, r.stats().parkersDied());
            } finally {
                release.set(true);
                r.close();
                second.close();
            }
        }
    }
    @Test
    void the_run_stats_and_jfr_count_each_hosting_and_each_relief_once_as_the_loop_changes_hands(@TempDir Path dir) throws Exception {
        // Rounds that alternate the two ways a loop changes hands: leader/follower (the line has another
        // wait: hosted, no relief) and an idle host that its guest's own registration relieves. Every
        // wake in a round is the guest's (the other waits have no joiner), so the counts are exact.
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        Path file = dir.resolve("reliefs.jfr");
        long relieved = 0;
        try (Recording rec = new Recording(); GpuReactor r = hostingReactor(warnings); SimDevice dev = SimDevice.open()) {
            rec.enable("dev.gpureactor.HostingRelief");
            rec.disable("dev.gpureactor.Wait"); // on by default: a guest's wait event would cost the host its next one (docs/JFR.md, Known)
            rec.start();
            SimStream a = dev.stream(), b = dev.stream(), c = dev.stream();
            long hosted = 0;
            for (int round = 0; round < 6; round++) {
                boolean otherWait = round % 2 == 0;
                CountDownLatch goB = new CountDownLatch(1), goC = new CountDownLatch(1), registered = new CountDownLatch(1);
                GpuFuture<Void> waitB = null;
                if (otherWait) {
                    SimStream.Signal sigB = b.hold(goB).signal();
                    waitB = r.await(sigB.descriptor(), sigB.port()); // registered, never joined
                }
                AtomicReference<GpuFuture<Void>> waitC = new AtomicReference<>();
                Thread guest = hostIdle(r, a, () -> {
                    if (!otherWait) {
                        SimStream.Signal sigC = c.hold(goC).signal();
                        waitC.set(r.await(sigC.descriptor(), sigC.port())); // relieves the idle host
                    }
                    registered.countDown();
                });
                assertTrue(registered.await(GUARD.toSeconds(), TimeUnit.SECONDS));
                assertTrue(guest.join(GUARD));
                hosted++;
                if (!otherWait) relieved++;
                RunStats st = r.stats();
                assertEquals(hosted, st.hosted(), "round " + round + ": " + st);
                assertEquals(relieved, st.relieved(), "round " + round + ": " + st);
                goB.countDown();
                goC.countDown();
                GpuFuture<Void> other = otherWait ? waitB : waitC.get();
                until("round " + round + "'s other wait completed", other::isDone);
                assertEquals(Future.State.SUCCESS, other.state());
                until("round " + round + ": the registrations are back to 0", () -> r.registrations() == 0);
            }
            RunStats st = r.stats();
            assertEquals(1, st.parkersStarted(), "a thread standing by or taking the loop is not a parker started: " + st);
            assertEquals(0, st.parkersDied(), st.toString());
            assertTrue(st.parkerCpuNanos() >= 0, st.toString());
            assertTrue(parkerThreads(a.line()) <= 2, "a line keeps at most a parker and one thread standing by");
            r.close(); // the parker leaves: its last relief event carries what the one-a-second rule held back
            rec.stop();
            rec.dump(file);
        }
        // Every relief counted once in the events, which the thread taking the loop fills (a parker
        // thread, never the relieving guest) and the reactor's reporter commits (never the hosting parker
        // itself: JDK-8391824), at most one a second (EventSamplerTest pins the rate), and the parker's last
        // event, as it leaves, carries those held back.
        List<RecordedEvent> reliefs = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.gpureactor.HostingRelief")).toList();
        assertEquals(relieved, reliefs.stream().mapToLong(e -> e.getInt("reliefs")).sum(), reliefs.toString());
        assertFalse(reliefs.isEmpty(), "the first relief emits at once");
        assertEquals(0, reliefs.stream().mapToLong(e -> e.getInt("threadsStarted")).sum(), "each relief found a thread standing by: " + reliefs);
        assertTrue(reliefs.stream().allMatch(e -> e.getThread() != null && !e.getThread().isVirtual()
                && e.getThread().getJavaName().startsWith("gar-reporter-")), "committed by the reactor's reporter: " + reliefs);
    }
    @Test
    void timed_and_interrupted_joins_racing_the_hosted_wake_end_only_their_caller_and_lose_no_wait() throws Exception {
        // Each round: a joiner with a short limit, and an interrupt, race the store whose wake the parker
        // hosts (or hands to a carrier). Whatever wins, the caller sees its value, a coded Timeout or a coded
        // Interrupted; the wait itself completes; nothing is left registered and no round hangs.
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        try (GpuReactor r = hostingReactor(warnings); SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream();
            int[] outcomes = new int[3]; // value, Timeout, Interrupted
            for (int round = 0; round < 200; round++) {
                boolean otherWait = round % 2 == 0;
                CountDownLatch goB = new CountDownLatch(1);
                GpuFuture<Void> waitB = null;
                if (otherWait) {
                    SimStream.Signal sigB = b.hold(goB).signal();
                    waitB = r.await(sigB.descriptor(), sigB.port());
                }
                CountDownLatch goA = new CountDownLatch(1);
                SimStream.Signal sigA = a.hold(goA).signal();
                long target = sigA.descriptor().target();
                GpuFuture<Long> waitA = r.await(sigA.descriptor(), sigA.port(), () -> target);
                AtomicReference<Object> seen = new AtomicReference<>();
                long limitNanos = 1_000 * (round % 50);
                boolean byGet = round % 3 == 0;
                Thread joiner = r.startVirtualThread(() -> {
                    try {
                        seen.set(byGet ? waitA.get(limitNanos, TimeUnit.NANOSECONDS) : waitA.join(Duration.ofNanos(limitNanos)));
                    } catch (ReactorException e) {
                        seen.set(e.code());
                    } catch (java.util.concurrent.TimeoutException e) {
                        seen.set(ErrorCode.Timeout);
                    } catch (InterruptedException e) {
                        seen.set(ErrorCode.Interrupted);
                    } catch (java.util.concurrent.ExecutionException e) {
                        seen.set(e);
                    }
                });
                goA.countDown();
                if (round % 4 == 1) joiner.interrupt();
                assertTrue(joiner.join(GUARD), "round " + round);
                Object o = seen.get();
                if (o instanceof Long v) {
                    assertEquals(target, v);
                    outcomes[0]++;
                } else if (o == ErrorCode.Timeout) {
                    outcomes[1]++;
                } else {
                    assertEquals(ErrorCode.Interrupted, o, "round " + round);
                    outcomes[2]++;
                }
                assertEquals(target, waitA.join(GUARD), "round " + round + ": the wait completes for everyone else");
                goB.countDown();
                if (waitB != null) assertNull(waitB.join(GUARD));
            }
            until("the registrations are back to 0", () -> r.registrations() == 0);
            assertEquals(200, outcomes[0] + outcomes[1] + outcomes[2]);
            assertTrue(parkerThreads(a.line()) <= 2);
        }
    }
    @Test
    void a_hosted_guest_that_throws_reaches_its_own_handler_as_itself_and_the_line_goes_on() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        RuntimeException boom = new RuntimeException("the guest's own failure");
        try (GpuReactor r = hostingReactor(warnings); SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream();
            for (boolean otherWait : new boolean[] {true, false}) {
                CountDownLatch goB = new CountDownLatch(1);
                GpuFuture<Void> waitB = null;
                if (otherWait) {
                    SimStream.Signal sigB = b.hold(goB).signal();
                    waitB = r.await(sigB.descriptor(), sigB.port());
                }
                CountDownLatch goA = new CountDownLatch(1);
                SimStream.Signal sigA = a.hold(goA).signal();
                GpuFuture<Void> waitA = r.await(sigA.descriptor(), sigA.port());
                AtomicReference<String> ranOn = new AtomicReference<>();
                AtomicReference<Thread> handledFor = new AtomicReference<>();
                AtomicReference<Throwable> handled = new AtomicReference<>();
                Thread guest = r.threadFactory().newThread(() -> {
                    waitA.join();
                    ranOn.set(carrierOf(Thread.currentThread()));
                    throw boom;
                });
                guest.setUncaughtExceptionHandler((t, e) -> { handledFor.set(t); handled.set(e); });
                guest.start();
                parked(guest);
                standingBy(r, a.line());
                goA.countDown();
                assertTrue(guest.join(GUARD));
                assertTrue(ranOn.get().startsWith("gar-parker-"), ranOn.get());
                assertSame(guest, handledFor.get(), "the handler is told the guest's own thread");
                assertSame(boom, handled.get());
                goB.countDown();
                if (waitB != null) {
                    GpuFuture<Void> w = waitB;
                    until("the other wait completed", w::isDone);
                    assertEquals(Future.State.SUCCESS, w.state());
                }
            }
            assertEquals(0, r.stats().parkersDied());
            assertTrue(r.warnings().stream().noneMatch(w -> w.code() == ErrorCode.ParkerDied), r.warnings().toString()); // kept as raised
            until("the registrations are back to 0", () -> r.registrations() == 0);
        }
    }
    @Test
    void a_hosted_executor_task_that_shuts_its_executor_down_now_and_closes_it_ends_as_the_jdks_would() throws Exception {
        // The task hosted on the parker (leader/follower: its line has another task's wait) calls
        // shutdownNow(), which interrupts every task, itself included, then close(), which from one of the
        // executor's own tasks only shuts down. The other task's join ends Interrupted; its wait stays
        // watched and completes; the executor terminates; no parker-side wait is left.
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        try (GpuReactor r = hostingReactor(warnings); SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream();
            GpuExecutorService e = r.newExecutor();
            CountDownLatch goB = new CountDownLatch(1), goA = new CountDownLatch(1);
            SimStream.Signal sigB = b.hold(goB).signal();
            GpuFuture<Void> waitB = r.await(sigB.descriptor(), sigB.port());
            Future<Object> other = e.submit(() -> {
                try {
                    waitB.join();
                    return "joined";
                } catch (ReactorException x) {
                    return x.code();
                }
            });
            SimStream.Signal sigA = a.hold(goA).signal();
            GpuFuture<Void> waitA = r.await(sigA.descriptor(), sigA.port());
            AtomicReference<String> ranOn = new AtomicReference<>();
            AtomicBoolean selfInterrupted = new AtomicBoolean();
            AtomicReference<Thread> closerThread = new AtomicReference<>();
            Future<?> closer = e.submit(() -> {
                closerThread.set(Thread.currentThread());
                waitA.join();
                ranOn.set(carrierOf(Thread.currentThread()));
                e.shutdownNow();
                selfInterrupted.set(Thread.currentThread().isInterrupted());
                e.close(); // from its own task: shuts down, does not wait for itself
                return null;
            });
            until("the closing task started", () -> closerThread.get() != null);
            parked(closerThread.get()); // its wake then goes through the parker's unpark
            until("the parker holds both waits", () -> r.parkerOf(a.line()).slotSizes().stream().mapToInt(Integer::intValue).sum() == 2);
            standingBy(r, a.line());
            goA.countDown();
            assertNull(closer.get(GUARD.toSeconds(), TimeUnit.SECONDS));
            assertTrue(ranOn.get().startsWith("gar-parker-"), "the closing task was hosted: " + ranOn.get());
            assertTrue(selfInterrupted.get(), "shutdownNow interrupts the calling task too");
            assertEquals(ErrorCode.Interrupted, other.get(GUARD.toSeconds(), TimeUnit.SECONDS));
            assertTrue(e.awaitTermination(GUARD.toSeconds(), TimeUnit.SECONDS));
            assertTrue(e.isShutdown() && e.isTerminated());
            assertTrue(waitB.isPending(), "an interrupted join leaves the wait itself pending");
            goB.countDown();
            assertNull(waitB.join(GUARD));
            until("the registrations are back to 0", () -> r.registrations() == 0);
        }
    }
    @Test
    void closing_a_line_and_then_the_reactor_under_a_hosting_load_ends_every_joiner_and_leaves_no_thread()
            throws Exception {
        // One parker over two lines, 24 virtual threads awaiting and joining in a loop on 16 streams, so
        // the parker hosts and hands its loop over (about a hundred times a run). Then one line closes under
        // the load, and later the reactor: every joiner ends with its value, LineClosed or ShutDown.
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        GpuReactor r = GpuReactor.builder().hosting(true).carriers(1).hardwarePark(false)
                .linesPerParker(2).warnings(warnings::add).build();
        try (SimDevice dev = SimDevice.open()) {
            List<SimStream> streams = new java.util.ArrayList<>();
            for (int i = 0; i < 16; i++) streams.add(dev.stream());
            CompletionLine first = dev.lines().get(0), second = dev.lines().get(1);
            java.util.concurrent.atomic.AtomicLong values = new java.util.concurrent.atomic.AtomicLong(), wrong = new java.util.concurrent.atomic.AtomicLong();
            java.util.Map<Thread, Object> endedWith = new java.util.concurrent.ConcurrentHashMap<>();
            List<Thread> joiners = new java.util.ArrayList<>();
            for (int t = 0; t < 24; t++) {
                SimStream s = streams.get(t % 16);
                long seed = t;
                joiners.add(r.startVirtualThread(() -> {
                    java.util.Random rnd = new java.util.Random(seed);
                    while (true) {
                        try {
                            SimStream.Signal sig;
                            synchronized (s) { // one joiner's compute and signal at a time per stream
                                sig = s.compute(Duration.ofNanos(rnd.nextInt(200_000))).signal();
                            }
                            long target = sig.descriptor().target();
                            long v = r.await(sig.descriptor(), sig.port(), () -> target).join();
                            if (v == target) values.incrementAndGet(); else wrong.incrementAndGet();
                        } catch (ReactorException e) {
                            endedWith.put(Thread.currentThread(), e.code());
                            return;
                        }
                    }
                }));
            }
            long before = values.get();
            until("the load runs", () -> values.get() >= before + 2_000);
            // A hosting load: the parker hosts only in a pass that finds the one carrier without a backlog
            // (2–4 % of the wakes here), so the load goes on until it has, before anything closes.
            until("the parker hosts under the load", () -> r.stats().hosted() > 0);
            second.close(); // its waits fail LineClosed; the parker goes on for the first line
            long mid = values.get();
            until("the first line's load goes on", () -> values.get() >= mid + 500);
            LineParker p = r.parkerOf(first);
            assertTrue(p != null && p.isLive(), "the parker serves the first line still");
            r.close();
            for (Thread j : joiners) assertTrue(j.join(GUARD), "a joiner hung: " + j);
            assertEquals(0, wrong.get());
            for (int t = 0; t < 24; t++) {
                Object code = endedWith.get(joiners.get(t));
                Object expected = t % 16 < 8 ? ErrorCode.ShutDown : ErrorCode.LineClosed;
                assertEquals(expected, code, "joiner " + t + " on line " + (t % 16 < 8 ? first : second));
            }
            assertEquals(0, r.registrations());
            until("no parker thread is left", () -> parkerThreads(first) == 0 && parkerThreads(second) == 0);
            assertTrue(r.carriers().orElseThrow().awaitExit(GUARD), "the carriers leave after the last thread");
            assertEquals(0, r.stats().parkersDied(), r.stats().toString());
            assertTrue(r.stats().hosted() > 0, "the load was hosted: " + r.stats());
        } finally {
            r.close();
        }
    }
    @Test
    void an_error_on_the_old_owner_after_its_hand_over_drops_no_guest_fails_no_wait_and_strands_no_thread() throws Exception {
        // An Error thrown on the hosting thread once it handed its loop to the standby (the host fault stands
        // for an OutOfMemoryError while it counts the hosting) must not reach the loop's error handling:
        // that would fail the new owner's waits ParkerDied, drop the woken guest (it would never run again),
        // and make the old owner leave a loop it does not run, so the reactor would replace the parker while
        // the new owner runs on unseen, out of close's reach.
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        ParkerFaults faults = new ParkerFaults();
        GpuReactor r = hostingReactor(warnings, faults);
        AtomicReference<CompletionLine> line = new AtomicReference<>();
        try (SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream();
            line.set(a.line());
            CountDownLatch goB = new CountDownLatch(1), goA = new CountDownLatch(1);
            SimStream.Signal sigB = b.hold(goB).signal();
            GpuFuture<Void> waitB = r.await(sigB.descriptor(), sigB.port()); // the line's other wait: leader/follower
            SimStream.Signal sigA = a.hold(goA).signal();
            GpuFuture<Void> waitA = r.await(sigA.descriptor(), sigA.port());
            AtomicReference<String> ranOn = new AtomicReference<>();
            Thread guest = r.startVirtualThread(() -> {
                waitA.join();
                ranOn.set(carrierOf(Thread.currentThread()));
            });
            parked(guest);
            standingBy(r, a.line());
            LineParker p = r.parkerOf(a.line());
            AtomicBoolean once = new AtomicBoolean();
            faults.host.put(p, () -> { if (once.compareAndSet(false, true)) throw new InjectedDeath(); });
            goA.countDown();
            assertTrue(guest.join(GUARD), "the woken guest ran");
            assertTrue(once.get(), "the fault was injected");
            assertTrue(ranOn.get().startsWith("gar-parker-"), "it ran on the thread that woke it: " + ranOn.get());
            goB.countDown();
            assertNull(waitB.join(GUARD), "the new owner's wait completes");
            assertEquals(0, r.stats().parkersDied(), r.stats().toString());
            assertTrue(p.isLive(), "the parker lives on: only the old owner's count failed");

            // A later wait of the line is served by the same parker, and close reaches every thread.
            theSameParkerServesALaterWait(r, a, p);
        } finally {
            r.close();
        }
        until("every parker thread of the line left", () -> parkerThreads(line.get()) == 0);
    }
    @Test
    void an_error_on_a_thread_as_it_stands_by_again_ends_neither_the_parker_nor_the_loops_owner() throws Exception {
        // A relieved thread is not the loop's owner: an Error as it stands by again (the stand-by fault stands for
        // an OutOfMemoryError in what it does there) must not make it leave the loop. It did: it failed the
        // owner's waits ParkerDied from outside the loop, and the reactor replaced a parker whose owner ran
        // on where close() never reached it.
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        ParkerFaults faults = new ParkerFaults();
        GpuReactor r = hostingReactor(warnings, faults);
        AtomicReference<CompletionLine> line = new AtomicReference<>();
        try (SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream();
            line.set(a.line());
            AtomicBoolean release = new AtomicBoolean();
            Hosted h = hostWhileAnotherWaits(r, a, b, () -> { while (!release.get()) Thread.onSpinWait(); });
            LineParker p = r.parkerOf(a.line());
            AtomicBoolean once = new AtomicBoolean();
            faults.standBy.put(p, () -> { if (once.compareAndSet(false, true)) throw new InjectedDeath(); });
            release.set(true); // the guest ends; its host stands by again, and the fault strikes there
            assertTrue(h.guest().join(GUARD));
            until("the fault was injected", once::get);
            h.goB().countDown();
            assertTrue(h.joinerB().join(GUARD));
            assertEquals(Future.State.SUCCESS, h.waitB().state(), "the owner's wait: " + h.waitB());
            assertEquals(0, r.stats().parkersDied(), r.stats().toString());
            assertTrue(p.isLive(), "the parker lives on");

            theSameParkerServesALaterWait(r, a, p);
        } finally {
            r.close();
        }
        until("every parker thread of the line left", () -> parkerThreads(line.get()) == 0);
    }

    /** A new wait on {@code a}'s line is served by {@code p} and completes. */
    private static void theSameParkerServesALaterWait(GpuReactor r, SimStream a, LineParker p) throws InterruptedException {
        SimStream.Signal next = a.compute(Duration.ofMillis(1)).signal();
        GpuFuture<Void> f = r.await(next.descriptor(), next.port());
        assertSame(p, r.parkerOf(a.line()), "the same parker serves the line");
        Thread joiner = r.startVirtualThread(f::join);
        assertTrue(joiner.join(GUARD));
        assertEquals(Future.State.SUCCESS, f.state());
    }
}
