package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.ReactorCounters;
import dev.gpureactor.parker.SnapshotPark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code Builder.carrierTurns}: a carrier between two tasks takes the turn of a parker that sleeps out a
 * polling park once a word of its lines moved ({@code TurnLoan}), and runs the virtual thread that turn
 * wakes itself, next; the owner takes its loop back only after the lent turn, and handles what it threw.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CarrierTurnsTest {
    private static final Duration GUARD = Duration.ofSeconds(60);

    @Test
    void a_carrier_between_tasks_takes_the_parked_parkers_turn_and_runs_the_thread_it_wakes() throws Exception {
        // Carrier turns at their default (on); slices of 10 ms: the parker's own wake comes long after the carrier's look.
        GpuReactor r = GpuReactor.builder().carriers(1).hardwarePark(false)
                .plan("flag:park_us=10000,backstop_us=1000000").parkSlice(Duration.ofMillis(10)).build();
        try (SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            int onCarrier = 0;
            for (int round = 0; round < 5; round++) {
                CountDownLatch go = new CountDownLatch(1);
                SimStream.Signal sig = s.hold(go).signal();
                GpuFuture<Void> f = r.await(sig.descriptor(), sig.port());
                AtomicReference<String> ran = new AtomicReference<>();
                Thread joiner = r.startVirtualThread(() -> { f.join(); ran.set(HostingTest.carrierOf(Thread.currentThread())); });
                HostingTest.parked(joiner);
                parking(r, s.line());
                RunStats before = storeWhileTheCarrierIsBusy(r, sig, go);
                assertTrue(joiner.join(GUARD), "round " + round + ": the joiner ended");
                RunStats after = r.stats();
                long byCarrier = after.parkerPhases().carrierWoke() - before.parkerPhases().carrierWoke();
                assertEquals(1, after.woke() - before.woke(), "round " + round + ": the wait was completed once: " + after);
                // A round whose store the parker's own slice saw first (its carrier off its core for
                // 10 ms) shows nothing of the loan; it counts no carrier turn.
                if (byCarrier == 0) continue;
                onCarrier++;
                assertEquals(1, byCarrier, "round " + round);
                assertEquals(before.hosted(), after.hosted(), "round " + round + ": not hosted by a parker thread");
                assertTrue(ran.get().startsWith("gar-carrier-"), "round " + round + ": ran on " + ran.get());
            }
            assertTrue(onCarrier >= 3, "only " + onCarrier + " of 5 stores were completed by the carrier between tasks");
        } finally {
            r.close();
        }
    }

    @Test
    void a_stage_completed_by_a_carriers_lent_turn_runs_its_dependents_on_a_virtual_thread_not_on_the_carrier() throws Exception {
        // As the test above, with a stage's dependent where the joiner was: the lent turn settles the wait on the
        // carrier thread itself (between tasks, no virtual thread mounted), which must not run user callbacks.
        GpuReactor r = GpuReactor.builder().carriers(1).hardwarePark(false)
                .plan("flag:park_us=10000,backstop_us=1000000").parkSlice(Duration.ofMillis(10)).build();
        try (SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            int byCarrierTurns = 0;
            for (int round = 0; round < 8 && byCarrierTurns < 3; round++) {
                CountDownLatch go = new CountDownLatch(1);
                SimStream.Signal sig = s.hold(go).signal();
                GpuFuture<Void> f = r.await(sig.descriptor(), sig.port());
                AtomicReference<Thread> ranOn = new AtomicReference<>();
                CountDownLatch ran = new CountDownLatch(1);
                f.toCompletableFuture().thenRun(() -> { ranOn.set(Thread.currentThread()); ran.countDown(); });
                parking(r, s.line());
                RunStats before = storeWhileTheCarrierIsBusy(r, sig, go);
                assertTrue(ran.await(GUARD.toSeconds(), TimeUnit.SECONDS), "round " + round);
                // No thread joins, so a lent turn wakes none: its count of turns tells it ran (else the parker's slice saw the store).
                if (r.stats().parkerPhases().carrierTurns() == before.parkerPhases().carrierTurns()) continue;
                byCarrierTurns++;
                assertTrue(ranOn.get().isVirtual(), "round " + round + ": a dependent ran on " + ranOn.get());
            }
            assertTrue(byCarrierTurns >= 1, "no store was completed by a carrier's turn");
        } finally {
            r.close();
        }
    }

    /**
     * The only carrier runs a task that ends once {@code sig}'s word is stored, so the carrier is between
     * tasks right after the store; {@code go} releases the store. Returns the stats from just before it.
     */
    private static RunStats storeWhileTheCarrierIsBusy(GpuReactor r, SimStream.Signal sig, CountDownLatch go) throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        Thread storeSeen = r.startVirtualThread(() -> {
            busy.countDown();
            while (!sig.descriptor().isCompleteVolatile()) Thread.onSpinWait();
        });
        assertTrue(busy.await(GUARD.toSeconds(), TimeUnit.SECONDS), "the carrier took the task");
        RunStats before = r.stats();
        go.countDown();
        assertTrue(storeSeen.join(GUARD), "the task that saw the store ended");
        return before;
    }

    @Test
    void without_carrier_turns_the_same_stores_are_the_parkers() throws Exception {
        GpuReactor r = GpuReactor.builder().carrierTurns(false).carriers(1).hardwarePark(false)
                .plan("flag:park_us=10000,backstop_us=1000000").parkSlice(Duration.ofMillis(10)).build();
        try (SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            CountDownLatch go = new CountDownLatch(1);
            SimStream.Signal sig = s.hold(go).signal();
            GpuFuture<Void> f = r.await(sig.descriptor(), sig.port());
            Thread joiner = r.startVirtualThread(f::join);
            HostingTest.parked(joiner);
            Thread storeSeen = r.startVirtualThread(() -> {
                while (!sig.descriptor().isCompleteVolatile()) Thread.onSpinWait();
            });
            go.countDown();
            assertTrue(storeSeen.join(GUARD) && joiner.join(GUARD));
            assertEquals(0, r.stats().parkerPhases().carrierTurns(), "no carrier turns when switched off");
        } finally {
            r.close();
        }
    }

    @Test
    void the_owner_takes_its_loop_back_after_the_lent_turn_and_sees_what_it_did() {
        CompletionLine line = line();
        AtomicReference<LineParker> self = new AtomicReference<>();
        AtomicBoolean lent = new AtomicBoolean();
        // The park stands for the owner's sleep: a "carrier" (this thread) sees the store and borrows the loop.
        SnapshotPark park = (watches, bound, spin) -> {
            line.store(Slot.of(0), 1);
            lent.set(self.get().lendTurn());
            return 0L;
        };
        ReactorCounters counters = new ReactorCounters();
        LineParker p = parker(line, park, counters, ParkerHooks.NONE);
        self.set(p);
        GpuFuture<Void> f = waitOn(p, line);
        assertFalse(p.lendTurn(), "not lent outside a park");
        assertTrue(p.inbox.announcePark(p.armFor()));
        p.parkLending(p.armFor(), 1_000_000, 0);
        assertTrue(lent.get(), "a carrier that saw the store took the turn");
        assertEquals(0, p.group.waiting(), "the owner sees the lent turn's completion");
        assertEquals(GpuFuture.COMPLETED, f.rawState());
        assertEquals(1, counters.counts().carrierTurns());
        assertEquals(1, counters.counts().carrierWoke());
    }

    @Test
    void nothing_moved_nothing_lent() {
        CompletionLine line = line();
        AtomicReference<LineParker> self = new AtomicReference<>();
        AtomicBoolean lent = new AtomicBoolean(true);
        LineParker p = parker(line, (watches, bound, spin) -> {
            lent.set(self.get().lendTurn());
            return 0L;
        }, new ReactorCounters(), ParkerHooks.NONE);
        self.set(p);
        GpuFuture<Void> f = waitOn(p, line);
        assertTrue(p.inbox.announcePark(p.armFor()));
        p.parkLending(p.armFor(), 1_000_000, 0);
        assertFalse(lent.get(), "no word moved: a carrier has nothing to do");
        assertEquals(1, p.group.waiting());
        assertEquals(GpuFuture.PENDING, f.rawState());
    }

    @Test
    void what_a_lent_turn_throws_is_the_owners_to_handle() {
        CompletionLine line = line();
        AtomicReference<LineParker> self = new AtomicReference<>();
        AtomicBoolean lent = new AtomicBoolean();
        ReactorException injected = new ReactorException(ErrorCode.Backend, "test", "lent turn", -1, "Injected", "a fault in a lent turn");
        ParkerHooks failing = new ParkerHooks() {
            @Override public void beforeLentTurn(LineParker parker) { throw injected; }
        };
        LineParker p = parker(line, (watches, bound, spin) -> {
            line.store(Slot.of(0), 1);
            lent.set(assertDoesNotThrow(() -> self.get().lendTurn(), "a lent turn never throws into the carrier"));
            return 0L;
        }, new ReactorCounters(), failing);
        self.set(p);
        waitOn(p, line);
        assertTrue(p.inbox.announcePark(p.armFor()));
        ReactorException thrown = assertThrows(ReactorException.class, () -> p.parkLending(p.armFor(), 1_000_000, 0));
        assertTrue(lent.get());
        assertSame(injected, thrown, "the owner's park throws what the lent turn threw, for its loop's error handling");
    }

    @Test
    void a_line_the_lent_turn_dropped_closing_under_the_owners_park_fails_no_other_wait() {
        // Seen as a ParkerDied of every wait under HostingEdgesTest's line-close load: a lent turn dropped a
        // closed line's watch, then the owner's park read that line and threw LineClosed, and the loop's
        // error handling, finding no watch left to drop, failed every wait.
        CompletionLine a = line(), b = line();
        AtomicReference<LineParker> self = new AtomicReference<>();
        ParkerHooks closesB = new ParkerHooks() {
            @Override public void beforeLentTurn(LineParker parker) { b.close(); } // the close lands during the lent turn
        };
        LineParker p = parker(a, (watches, bound, spin) -> {
            a.store(Slot.of(1), 1); // a store on A: a carrier borrows the loop
            assertTrue(self.get().lendTurn());
            b.word(Slot.of(0)); // the owner's park reads B, closed now: LineClosed
            return 0L;
        }, new ReactorCounters(), closesB);
        self.set(p);
        GpuFuture<Void> onA = waitOn(p, a);
        GpuFuture<Void> onA2 = new GpuFuture<>(2, new MemoryDescriptor(a, Slot.of(1), 1), LineWatchTest.neverDone(), null,
                Runnable::run, 0, 0, 0, null);
        GpuFuture<Void> onB = new GpuFuture<>(3, new MemoryDescriptor(b, Slot.of(0), 1), LineWatchTest.neverDone(), null,
                Runnable::run, 0, 0, 0, null);
        p.inbox.register(onA2.lineWait);
        p.inbox.register(onB.lineWait);
        p.step(false); // routes B's wait: a watch for B
        p.step(false); // snapshots B
        assertEquals(2, p.watchedLines());
        assertTrue(p.inbox.announcePark(p.armFor()));
        assertDoesNotThrow(() -> p.parkLending(p.armFor(), 1_000_000, 0), "the park's LineClosed would fail every wait");
        assertEquals(GpuFuture.COMPLETED, onA2.rawState(), "the lent turn completed A's stored wait");
        assertEquals(GpuFuture.FAILED, onB.rawState(), "B's wait failed with its line");
        assertEquals(GpuFuture.PENDING, onA.rawState(), "A's other wait is untouched");
        p.step(false);
        assertEquals(1, p.watchedLines(), "B's watch is gone");
        assertEquals(1, p.group.waiting());
    }

    private static CompletionLine line() {
        return CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "t", () -> { });
    }

    /** A parker without a thread whose loop carriers may borrow, over a pool without carrier threads. */
    private static LineParker parker(CompletionLine line, SnapshotPark park, ReactorCounters counters, ParkerHooks hooks) {
        return new LineParker(line, park, LineWatchTest.PLAN, new PointTable<>(), new ManualClock(), w -> { }, counters, 0,
                null, CarrierPool.withoutCarriers(), false, true, hooks);
    }

    /** A wait on slot 0 reaching 1, registered and drained by the owner's turn. */
    private static GpuFuture<Void> waitOn(LineParker p, CompletionLine line) {
        p.step(false);
        GpuFuture<Void> f = new GpuFuture<>(1, new MemoryDescriptor(line, Slot.of(0), 1), LineWatchTest.neverDone(), null,
                Runnable::run, 0, 0, 0, null);
        p.inbox.register(f.lineWait);
        p.step(false);
        assertEquals(1, p.group.waiting());
        return f;
    }

    /** Waits (hang-guarded) until the line's parker is in a park its loan is open for. */
    private static void parking(GpuReactor r, CompletionLine line) throws InterruptedException {
        long end = System.nanoTime() + GUARD.toNanos();
        while ((r.parkerOf(line) == null || !r.parkerOf(line).inbox.isParking()) && System.nanoTime() < end) Thread.sleep(1);
        assertTrue(r.parkerOf(line).inbox.isParking(), "the parker parks");
    }
}
