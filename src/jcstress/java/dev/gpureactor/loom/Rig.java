package dev.gpureactor.loom;

import dev.gpureactor.parker.Reports;
import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.parker.ReactorCounters;
import dev.gpureactor.parker.Turn;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.SnapshotPark;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;

import java.lang.foreign.Arena;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The real library objects the jcstress tests run against, built the way the reactor builds them,
 * minus the threads: the test's actors play the parker, the device and the waiters.
 *
 * <p>A line's memory comes from an automatic arena, so the millions of states a run makes are
 * freed by the collector (a line from {@link CompletionLine#allocate()} holds a shared arena until
 * it is closed).
 */
final class Rig {
    private Rig() { }

    /** A port that is never done and never fails; with the rig's still clock the parker never queries it. */
    static final CompletionPort NEVER = new CompletionPort() {
        @Override public boolean query() { return false; }
        @Override public void block() { throw new UnsupportedOperationException("never done"); }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    };

    /** A fresh, all-zero line over GC-managed off-heap memory. */
    static CompletionLine line() {
        return CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "jcstress", () -> { });
    }

    /**
     * A parker with no thread: the test calls {@link LineParker#step} and
     * {@link ParkerInbox#announceSleep} itself. Its clock stands still at 0, so no backstop falls
     * due and no deadline sleep is planned: every turn with waiters ends in a park on the line.
     */
    static LineParker parker(CompletionLine line) {
        return parker(line, ParkerHooks.NONE);
    }

    /** As {@link #parker(CompletionLine)}, with {@code hooks}: a negative control's one changed line. */
    static LineParker parker(CompletionLine line, ParkerHooks hooks) {
        return parker(line, hooks, new ReactorCounters());
    }

    /** As {@link #parker(CompletionLine, ParkerHooks)}, counting its registrations in {@code counters}. */
    static LineParker parker(CompletionLine line, ParkerHooks hooks, ReactorCounters counters) {
        return new LineParker(line, (watches, bound, spin) -> 0L, new WaitPlan.FlagWait(100_000, 1_000_000, Optional.empty()),
                new PointTable<>(), new ManualClock(), w -> { }, counters, 0, null, null, false, false, hooks);
    }

    /** A park that spins briefly, as a real park sleeps a slice: a carrier may borrow the loop while it lasts. */
    static final SnapshotPark BRIEF_PARK = (watches, bound, spin) -> {
        for (int i = 0; i < 64; i++) Thread.onSpinWait();
        return 0L;
    };

    /**
     * A parker whose loop carriers may borrow between tasks ({@code Builder.carrierTurns}), over a
     * pool with no carrier threads, parking with {@code park} ({@link #BRIEF_PARK}, or a variation).
     */
    static LineParker lendingParker(CompletionLine line, ParkerHooks hooks, SnapshotPark park) {
        return new LineParker(line, park, new WaitPlan.FlagWait(100_000, 1_000_000, Optional.empty()), new PointTable<>(),
                new ManualClock(), w -> { }, new ReactorCounters(), 0, null, CarrierPool.withoutCarriers(), false, true, hooks);
    }

    /** The controls' parker: dropping a closed line's watch does not fail its waits. */
    static final ParkerHooks KEEPS_CLOSED_LINE_WAITS = new ParkerHooks() {
        @Override public boolean closedLineFailsWaits() { return false; }
    };

    /** The controls' parker: a registrar does not read {@code gone} after its offer. */
    static final ParkerHooks SKIPS_GONE = new ParkerHooks() {
        @Override public boolean registrarReadsGone() { return false; }
    };

    /** The controls' parker: a registrar does not read {@code parking} after its offer. */
    static final ParkerHooks SKIPS_PARKING = new ParkerHooks() {
        @Override public boolean registrarReadsParking() { return false; }
    };

    /** The controls' parker: a relieved host announces itself standing by at once, not after its relief's hand-over. */
    static final ParkerHooks ANNOUNCES_AT_ONCE = new ParkerHooks() {
        @Override public boolean awaitsPendingRelief() { return false; }
    };

    /** The controls' parker: a hand-over writes the standby's {@code handed} before {@code thread}. */
    static final ParkerHooks HANDS_FIRST = new ParkerHooks() {
        @Override public boolean handOverWritesThreadFirst() { return false; }
    };

    /** {@code TurnLoanNegativeControl}'s parker: the owner takes its loop back without waiting for a lent turn. */
    static final ParkerHooks TAKES_BACK_AT_ONCE = new ParkerHooks() {
        @Override public boolean ownerWaitsForBorrower() { return false; }
    };

    /** A turn's answer as the tests report it (the numbers the parker's int answers had): 0 again, 1 idle, 2 sleep, 3 park. */
    static int code(Turn t) {
        return switch (t) {
            case Turn.Again _ -> 0;
            case Turn.Idle _ -> 1;
            case Turn.Sleep _ -> 2;
            case Turn.Park _ -> 3;
        };
    }

    /** A future's state as the tests report it: 0 pending, 1 completed, 2 anything else. */
    static int settled(GpuFuture<?> f) {
        int s = f.rawState();
        return s == GpuFuture.PENDING ? 0 : s == GpuFuture.COMPLETED ? 1 : 2;
    }

    /** A wait on {@code line[slot] >= target}, as {@code GpuReactor.await} makes it (cold point: wake at start). */
    static <T> GpuFuture<T> future(CompletionLine line, int slot, long target, Supplier<? extends T> readback) {
        return future(line, slot, target, NEVER, readback);
    }

    /** As {@link #future(CompletionLine, int, long, Supplier)}, with {@code port} as the error authority. */
    static <T> GpuFuture<T> future(CompletionLine line, int slot, long target, CompletionPort port, Supplier<? extends T> readback) {
        return future(line, slot, target, port, Inline.NONE, readback);
    }

    /** As {@link #future(CompletionLine, int, long, CompletionPort, Supplier)}, with the inline policy {@code inline}. */
    static <T> GpuFuture<T> future(CompletionLine line, int slot, long target, CompletionPort port, Inline inline,
                                   Supplier<? extends T> readback) {
        return future(line, slot, target, port, inline, FutureControls.NONE, readback);
    }

    /** As {@link #future(CompletionLine, int, long, CompletionPort, Inline, Supplier)}, with a negative control's {@code controls}. */
    static <T> GpuFuture<T> future(CompletionLine line, int slot, long target, CompletionPort port, Inline inline,
                                   FutureControls controls, Supplier<? extends T> readback) {
        return new GpuFuture<>(1, new MemoryDescriptor(line, Slot.of(slot), target), port, readback, Runnable::run, 0, 0, 0, 0,
                null, null, inline, Reports.IN_PLACE, controls);
    }

    /** As {@link #future(CompletionLine, int, long, Supplier)} with {@code controls}, on a fresh line's slot 0, target 1. */
    static <T> GpuFuture<T> future(FutureControls controls, Supplier<? extends T> readback) {
        return future(line(), 0, 1, NEVER, Inline.NONE, controls, readback);
    }

    /**
     * One joiner step on {@code f}, as {@code join} takes it: read the state, register (the sole slot if free,
     * else a node on the stack), re-check the state ({@link GpuFuture#recheck}); the registration it would
     * park with, or null when it saw a move.
     */
    static GpuFuture.Joiner joinStep(GpuFuture<?> f) {
        int s = f.rawState();
        if (s != GpuFuture.PENDING) return null;
        GpuFuture.Joiner me = f.register(Thread.currentThread());
        return f.recheck(s) ? me : null;
    }

    /**
     * Whether a waker took {@code thread}'s registration {@code me} on {@code f} out and unparked it: a node's
     * thread is cleared; the sole slot no longer holds {@code thread} (it may hold a later joiner's).
     */
    static boolean woken(GpuFuture<?> f, GpuFuture.Joiner me, Thread thread) {
        return me == JoinerStack.IN_SOLE ? f.soleJoiner() != thread : me.thread == null;
    }

    /**
     * The policy {@code GpuReactor} gives its futures under gpu-reactor (the std host): a platform
     * joiner runs the plan inline (here a flag plan, no deadline); a virtual one waits for the parker.
     */
    static Inline stdHost() {
        return stdHost(w -> { throw new AssertionError("no wait is given back here"); });
    }

    /** As {@link #stdHost()}, where a wait given back registers with {@code parker} again, as the reactor's roster does. */
    static Inline stdHost(LineParker parker) {
        return stdHost(w -> {
            w.heldBy(parker.inbox);
            parker.inbox.registerAndRecheck(w);
        });
    }

    private static Inline stdHost(java.util.function.Consumer<dev.gpureactor.parker.LineWait> parkerWatch) {
        WaitPlan plan = new WaitPlan.FlagWait(100_000, 1_000_000, Optional.empty());
        return new Inline.Plan(new NaiveWait(plan, new PointTable<>(), new ManualClock(), w -> { }), parkerWatch, null);
    }

    /**
     * Registers {@code f} with {@code parker} as {@code GpuReactor.await} does under gpu-reactor: the
     * node learns its parker (a withdrawal goes to the parker's removals), then the offer.
     */
    static void registerAsReactorDoes(LineParker parker, GpuFuture<?> f) {
        f.lineWait.heldBy(parker.inbox);
        parker.inbox.register(f.lineWait);
    }

    /**
     * A failed stream whose word still arrives: every query reports the failure, and the first one
     * then stores {@code target} into {@code line[slot]} (after deciding to fail, as the simulated
     * device's "store into failure" stores only once a query reported the failure).
     */
    static FailingPort failingThenStoring(CompletionLine line, int slot, long target) {
        return new FailingPort(line, Slot.of(slot), target);
    }

    static final class FailingPort implements CompletionPort {
        private final CompletionLine line;
        private final Slot slot;
        private final long target;
        private final ReactorException failure = new ReactorException(ErrorCode.Backend, "jcstress", "stream", 719,
                "SIM_ERROR_LAUNCH_FAILED", "store into failure");

        FailingPort(CompletionLine line, Slot slot, long target) {
            this.line = line;
            this.slot = slot;
            this.target = target;
        }

        @Override public boolean query() {
            line.store(slot, target);
            // Stands for the way back from the query to the joiner's fail (the exception through the
            // wait driver; microseconds when cold, as in the soak): without it the window between
            // the late store and the fail is a few nanoseconds and a parker's turn seldom lands in it.
            for (int i = 0; i < 200; i++) Thread.onSpinWait();
            throw failure;
        }
        @Override public void block() { throw failure; }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    }
}
