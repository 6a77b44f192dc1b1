package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.WaitPlan;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A host relieved by a registrar stands by in the place of the thread the relief hands the loop to, so the parker
 * keeps a thread standing by (and keeps hosting) through any number of reliefs. The race itself, the host against
 * the registrar's claim and hand-over, is jcstress's {@code ReliefStandbyStress}; here each step is placed by hand.
 */
class ReliefStandbyTest {
    private LineParker parker;
    private ParkerThread host, standing;

    @BeforeEach
    void aHostWithAThreadStandingBy() {
        CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "test", () -> { });
        parker = new LineParker(line, (watches, bound, spin) -> 0L, new WaitPlan.FlagWait(100_000, 1_000_000, Optional.empty()),
                new PointTable<>(), new ManualClock(), w -> { }, new ReactorCounters(), 0, null, null, false, false, ParkerHooks.NONE);
        host = new ParkerThread(parker, "gar-parker-test-host");
        standing = new ParkerThread(parker, "gar-parker-test-standby");
        assertTrue(parker.hosting.announceStandby(host));
        assertTrue(parker.hosting.handOver(), "the loop is the host's");
        assertTrue(parker.hosting.announceStandby(standing), "and a second thread stands by");
        parker.hosting.announceHosting(host);
        assertTrue(parker.hosting.claimRelief(), "a registrar claims the loop from the hosting thread");
        assertFalse(parker.hosting.endHosting(host), "the host, its guest parked, finds itself relieved");
    }

    @Test
    void a_relieved_host_waits_for_the_hand_over_and_then_stands_by_in_the_place_of_the_thread_it_took() throws Exception {
        CompletableFuture<Boolean> stood = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> stood.complete(parker.hosting.announceAfterRelief(host)));
        Thread.sleep(50); // the registrar, between its claim and its hand-over, lost its core
        assertFalse(stood.isDone(), "it waits for the hand-over; announced at once it met the thread the relief is taking, and left");
        parker.hosting.relieve();
        assertTrue(stood.get(10, TimeUnit.SECONDS), "then it stands by");
        assertSame(standing, parker.inbox.loopThread(), "the loop is the thread that stood by");
        assertTrue(parker.hosting.hasStandby(), "and a thread stands by again: the parker can host on");
    }

    @Test
    void a_relieved_host_whose_place_another_thread_took_leaves() {
        parker.hosting.relieve();
        ParkerThread other = new ParkerThread(parker, "gar-parker-test-other");
        assertTrue(parker.hosting.announceStandby(other), "another thread stood by first");
        assertFalse(parker.hosting.announceAfterRelief(host), "one thread stands by, not two: this one leaves");
    }

    @Test
    void a_relieved_host_whose_hand_over_never_comes_leaves_after_its_bound() {
        long t0 = System.nanoTime();
        assertFalse(parker.hosting.announceAfterRelief(host), "the relief ran out of memory before its hand-over");
        assertTrue(System.nanoTime() - t0 >= ParkerHosting.PENDING_RELIEF_MAX_NANOS, "it waited its bound first");
    }
}
