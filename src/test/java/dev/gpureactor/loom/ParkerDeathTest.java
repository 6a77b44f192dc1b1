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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.gpureactor.loom.Poll.until;
import static org.junit.jupiter.api.Assertions.*;

/**
 * A parker that dies, a line that closes and a reactor that closes, each under waiters and racing
 * registrations: every wait ends with a coded error or its result, never hangs, and the line gets
 * a new parker or reports itself closed. The device is held on gates, so a wait that is not ended
 * by the fault would last until the hang guard.
 */
class ParkerDeathTest {
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);
    private static final String PLAN = "flag:park_us=100,backstop_us=1000";

    /** An Error the parker's loop cannot handle: it ends the thread. */
    private static final class InjectedDeath extends Error {
        private static final long serialVersionUID = 1L;

        InjectedDeath() { super("injected parker death", null, false, false); }
    }

    @Test
    void a_dead_parker_fails_its_waiters_with_parker_died_and_the_next_registration_gets_a_new_parker() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        ParkerFaults faults = new ParkerFaults();
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).warnings(warnings::add).parkerHooks(faults).build();
             SimDevice dev = SimDevice.open()) {
            HeldWait held = HeldWait.on(r, dev);
            SimStream s = held.stream();
            LineParker p = held.parker();

            // Joined from a virtual thread, which waits for the parker. A platform joiner runs the plan
            // itself and withdraws the wait; should the parker drain that withdrawal in the pass already
            // past its fault point when the fault is armed, it idles with nothing to watch, the fault
            // never fires, and the joiner waits for the held device until the hang guard.
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread joiner = Thread.ofVirtual().start(() -> {
                try {
                    held.future().join(HANG_GUARD);
                } catch (Throwable x) {
                    thrown.set(x);
                }
            });
            until("the joiner waits", () -> joiner.getState() == Thread.State.TIMED_WAITING);
            faults.pass.put(p, () -> { throw new InjectedDeath(); });
            assertTrue(joiner.join(HANG_GUARD.plusSeconds(5)), "the joiner never returned");
            ReactorException e = assertInstanceOf(ReactorException.class, thrown.get(), "the join returned without a coded failure");
            assertEquals(ErrorCode.ParkerDied, e.code());
            ReactorException shared = assertInstanceOf(ReactorException.class, e.getCause(), "each joiner's own exception, the shared one its cause");
            assertEquals(ErrorCode.ParkerDied, shared.code());
            assertInstanceOf(InjectedDeath.class, shared.getCause());
            until("the parker thread has left", p.inbox::isDead);
            assertFalse(p.isLive());
            assertEquals(1, r.stats().parkersDied());
            // Raised on the dying parker: the sink hears it from the reactor's reporter thread.
            until("the sink hears the death", () -> warnings.stream().anyMatch(w -> w.code() == ErrorCode.ParkerDied));
            until("the registration count is back to 0", () -> r.registrations() == 0);

            SimStream.Signal second = s.signal();
            GpuFuture<Integer> g = r.await(second.descriptor(), second.port(), () -> 2);
            LineParker q = r.parkerOf(s.line());
            assertNotSame(p, q, "a new parker serves the line");
            assertTrue(q.isLive());
            held.gate().countDown();
            assertEquals(2, g.join(HANG_GUARD));
            // g may finish before the new parker thread runs its first line (a platform-thread join
            // runs the plan inline), so wait for the count rather than read it at once.
            until("the new parker thread has started", () -> r.stats().parkersStarted() == 2);
            assertEquals(2, r.stats().parkersStarted());
            until("the registration count is back to 0", () -> r.registrations() == 0);
        }
    }

    /**
     * A parker thread that dies when the heap runs out can run out again while it leaves. Its leaving
     * is tried again until it has failed every wait, marked the parker gone (so the line's next wait
     * gets a new parker, not a dead one nobody runs) and woken its standby thread (so nothing of it
     * outlives the reactor's close). Here the first try to leave meets an OutOfMemoryError.
     */
    @Test
    void a_parker_that_runs_out_of_memory_while_it_leaves_leaves_all_the_same() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        ParkerFaults faults = new ParkerFaults();
        GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).warnings(warnings::add).parkerHooks(faults).jmx(false).build();
        try (SimDevice dev = SimDevice.open()) {
            HeldWait held = HeldWait.on(r, dev);
            SimStream s = held.stream();
            LineParker p = held.parker();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread joiner = Thread.ofVirtual().start(() -> { // a virtual joiner waits for the parker (see above)
                try {
                    held.future().join(HANG_GUARD);
                } catch (Throwable x) {
                    thrown.set(x);
                }
            });
            until("the joiner waits", () -> joiner.getState() == Thread.State.TIMED_WAITING);
            AtomicInteger tries = new AtomicInteger();
            faults.leaving.put(p, () -> {
                if (tries.incrementAndGet() == 1) throw new OutOfMemoryError("injected: the heap ran out again while the parker left");
            });
            faults.pass.put(p, () -> { throw new OutOfMemoryError("injected: the heap ran out in the parker's loop"); });
            assertTrue(joiner.join(HANG_GUARD.plusSeconds(5)), "the joiner never returned");
            ReactorException e = assertInstanceOf(ReactorException.class, thrown.get(), "the join returned without a coded failure");
            assertEquals(ErrorCode.ParkerDied, e.code());
            assertEquals(2, tries.get(), "the leaving was tried again after the OutOfMemoryError");
            assertTrue(p.inbox.isDead(), "the parker is gone: no new wait goes to it");
            assertEquals(1, r.stats().parkersDied());
            until("the registration count is back to 0", () -> r.registrations() == 0);

            SimStream.Signal second = s.signal();
            GpuFuture<Integer> g = r.await(second.descriptor(), second.port(), () -> 2);
            assertNotSame(p, r.parkerOf(s.line()), "a new parker serves the line");
            held.gate().countDown();
            assertEquals(2, g.join(HANG_GUARD));
            r.close();
            String threads = "gar-parker-" + s.line().name(); // both parkers' threads, the standby of the dead one included
            until("no thread of either parker is left", () -> Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().equals(threads)));
        } finally {
            r.close();
        }
    }

    @Test
    void registrations_racing_a_parker_death_never_wait_forever() throws Exception {
        ParkerFaults faults = new ParkerFaults();
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).parkerHooks(faults).build(); SimDevice dev = SimDevice.open()) {
            List<SimStream> streams = new ArrayList<>();
            for (int i = 0; i < 4; i++) streams.add(dev.stream()); // four slots of one line
            CompletionLine line = streams.getFirst().line();
            AtomicInteger died = new AtomicInteger(), completed = new AtomicInteger();
            for (int round = 0; round < 40; round++) {
                CountDownLatch gate = new CountDownLatch(1);
                for (SimStream s : streams) s.hold(gate);
                List<GpuFuture<Void>> futures = new CopyOnWriteArrayList<>();
                List<SimStream.Signal> signals = new ArrayList<>();
                for (int k = 0; k < 25; k++) for (SimStream s : streams) signals.add(s.signal());
                // The first registration makes (or finds) the parker; kill it a few passes later,
                // while the registrars below are still offering.
                futures.add(r.await(signals.getFirst().descriptor(), signals.getFirst().port()));
                LineParker p = r.parkerOf(line);
                AtomicInteger passes = new AtomicInteger(1 + round % 4);
                faults.pass.put(p, () -> { if (passes.decrementAndGet() <= 0) throw new InjectedDeath(); });
                CountDownLatch registered = new CountDownLatch(4);
                for (int t = 0; t < 4; t++) {
                    int from = 1 + t * (signals.size() - 1) / 4, to = 1 + (t + 1) * (signals.size() - 1) / 4;
                    r.startVirtualThread(() -> {
                        for (int i = from; i < to; i++) futures.add(r.await(signals.get(i).descriptor(), signals.get(i).port()));
                        registered.countDown();
                    });
                }
                assertTrue(registered.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
                gate.countDown();
                for (GpuFuture<Void> f : futures) {
                    try {
                        f.join(HANG_GUARD);
                        completed.incrementAndGet();
                    } catch (ReactorException e) {
                        assertEquals(ErrorCode.ParkerDied, e.code(), e.getMessage());
                        died.incrementAndGet();
                    }
                }
                until("the registration count is back to 0", () -> r.registrations() == 0);
            }
            assertEquals(40 * 100, died.get() + completed.get());
            assertTrue(died.get() > 0, "the injected deaths failed some waits");
            assertTrue(r.stats().parkersDied() > 0);
        }
    }

    @Test
    void registrations_racing_a_line_close_fail_with_line_closed_and_never_wait_forever() throws Exception {
        Set<String> lineNames = ConcurrentHashMap.newKeySet();
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan(PLAN).build(); SimDevice dev = SimDevice.open()) {
            for (int round = 0; round < 100; round++) {
                CompletionLine line = CompletionLine.allocate();
                lineNames.add(line.name());
                SimStream s = dev.stream(line, Slot.of(round % 8));
                CountDownLatch gate = new CountDownLatch(1);
                s.hold(gate);
                List<SimStream.Signal> signals = new ArrayList<>();
                for (int k = 0; k < 60; k++) signals.add(s.signal());
                List<GpuFuture<Void>> futures = new CopyOnWriteArrayList<>();
                List<Throwable> thrown = new CopyOnWriteArrayList<>();
                CountDownLatch go = new CountDownLatch(1), done = new CountDownLatch(2);
                for (int t = 0; t < 2; t++) {
                    int from = t * 30;
                    r.startVirtualThread(() -> {
                        try {
                            go.await();
                            for (int i = from; i < from + 30; i++) futures.add(r.await(signals.get(i).descriptor(), signals.get(i).port()));
                        } catch (Throwable e) {
                            thrown.add(e);
                        } finally {
                            done.countDown();
                        }
                    });
                }
                go.countDown();
                if (round % 2 == 1) Thread.onSpinWait(); else Thread.sleep(0, 20_000);
                line.close();
                line.close(); // a second close does nothing
                assertTrue(done.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
                assertEquals(List.of(), thrown, "await never throws for a line that closes under it");
                for (GpuFuture<Void> f : futures) {
                    ReactorException e = assertThrows(ReactorException.class, () -> f.join(HANG_GUARD));
                    assertEquals(ErrorCode.LineClosed, e.code(), e.getMessage());
                }
                gate.countDown();
                s.close();
                until("the registration count is back to 0", () -> r.registrations() == 0);
            }
        }
        until("no parker of a closed line is left", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && lineNames.stream().anyMatch(n -> t.getName().equals("gar-parker-" + n))));
    }

    @Test
    void registrations_racing_a_reactor_close_fail_with_shut_down_and_leave_no_parker() throws Exception {
        Set<String> lineNames = ConcurrentHashMap.newKeySet();
        try (SimDevice dev = SimDevice.open()) {
            for (int round = 0; round < 50; round++) {
                GpuReactor r = GpuReactor.builder().carriers(1).plan(PLAN).build();
                CompletionLine line = CompletionLine.allocate();
                lineNames.add(line.name());
                SimStream s = dev.stream(line, Slot.of(0));
                CountDownLatch gate = new CountDownLatch(1);
                s.hold(gate);
                List<SimStream.Signal> signals = new ArrayList<>();
                for (int k = 0; k < 40; k++) signals.add(s.signal());
                List<GpuFuture<Void>> futures = new CopyOnWriteArrayList<>();
                CountDownLatch done = new CountDownLatch(1);
                Thread registrar = Thread.ofPlatform().start(() -> {
                    for (SimStream.Signal sig : signals) futures.add(r.await(sig.descriptor(), sig.port()));
                    done.countDown();
                });
                if (round % 2 == 1) Thread.onSpinWait(); else Thread.sleep(0, 20_000);
                r.close();
                assertTrue(done.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
                registrar.join();
                for (GpuFuture<Void> f : futures) {
                    ReactorException e = assertThrows(ReactorException.class, () -> f.join(HANG_GUARD));
                    assertEquals(ErrorCode.ShutDown, e.code(), e.getMessage());
                }
                gate.countDown();
                s.close();
                line.close();
            }
        }
        until("no parker outlives its reactor", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && lineNames.stream().anyMatch(n -> t.getName().equals("gar-parker-" + n))));
    }
}
