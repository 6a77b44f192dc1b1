package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.parker.ReactorCounters;
import dev.gpureactor.parker.ParkerThread;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A parker thread that announced hosting, was relieved, and then finds the carriers refusing its
 * guest must not let that reach the loop's error handling, which would fail waits that the relief
 * thread now owns. Synchronous: the test plays the registrar's claim.
 */
class HandBackTest {
    @Test
    void a_relieved_thread_whose_guest_the_carriers_refuse_runs_it_itself_and_touches_no_wait() {
        CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "t", () -> { });
        CarrierPool closed = CarrierPool.withoutCarriers();
        closed.close(); // it now refuses every task
        ReactorCounters counters = new ReactorCounters();
        LineParker p = new LineParker(line, (watches, bound, spin) -> 0L, LineWatchTest.PLAN, new PointTable<>(),
                new ManualClock(), w -> { }, counters, 0, null, closed, true);
        ParkerThread me = new ParkerThread(p, "t-host");
        GpuFuture<Void> registered = new GpuFuture<>(1, new MemoryDescriptor(line, Slot.of(0), 1),
                LineWatchTest.neverDone(), null, Runnable::run, 0, 0, 0, null);
        p.inbox.offer(registered.lineWait); // a registrar offered ...
        assertFalse(p.hosting.announceHosting(me)); // ... so the parker declines to host,
        assertTrue(p.hosting.claimRelief()); // and the registrar took the loop for the standing-by thread
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        boolean mine = assertDoesNotThrow(() -> p.hosting.handBack(me, () -> ranOn.set(Thread.currentThread())),
                "an exception here reaches the loop's error handling, which fails the relief thread's waits");
        assertFalse(mine, "the loop is the relief thread's");
        assertSame(Thread.currentThread(), ranOn.get(), "the refused guest was dropped");
        assertEquals(GpuFuture.PENDING, registered.rawState());
    }

    @Test
    void the_owner_still_hears_of_a_refused_guest() {
        CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "t", () -> { });
        CarrierPool closed = CarrierPool.withoutCarriers();
        closed.close();
        LineParker p = new LineParker(line, (watches, bound, spin) -> 0L, LineWatchTest.PLAN, new PointTable<>(),
                new ManualClock(), w -> { }, new ReactorCounters(), 0, null, closed, true);
        ParkerThread me = new ParkerThread(p, "t-host");
        p.inbox.offer(new GpuFuture<>(1, new MemoryDescriptor(line, Slot.of(0), 1), LineWatchTest.neverDone(), null,
                Runnable::run, 0, 0, 0, null).lineWait);
        assertFalse(p.hosting.announceHosting(me)); // declined, and nobody claimed the loop: still this thread's
        assertThrows(java.util.concurrent.RejectedExecutionException.class, () -> p.hosting.handBack(me, () -> { }));
    }
}
