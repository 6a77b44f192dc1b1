package dev.gpureactor.loom;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.park.PortFault;
import dev.gpureactor.parker.LineWait;
import dev.gpureactor.parker.PortFailureEvent;
import dev.gpureactor.parker.Reports;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread running a wait's plan itself ({@link Inline.Plan}): the first joiner under the naive
 * kind, a platform joiner under the std host, or the policy's runner when nobody joins. It settles
 * the future as a parker would, through the future's own CASes; docs/DESIGN.md §5 "inline takeover"
 * and "plan run vs close".
 */
final class NaiveRunner {
    private NaiveRunner() { }

    /**
     * This thread runs {@code f}'s plan, then settles {@code f}. It is registered as a joiner meanwhile
     * (the future's slot, or its stack), so a cancel wakes it in its deadline sleep. Its own limit or interrupt ends its wait as the
     * parked path's do, after it gives the wait back ({@link #leave}); any other throwable from the port ends
     * the wait for everyone with a coded failure carrying it (a second joiner must not park for ever).
     */
    static void run(GpuFuture<?> f, Inline.Plan p, boolean timed, long start, long nanos) throws InterruptedException, TimeoutException {
        GpuFuture.Joiner me = f.register(Thread.currentThread());
        try {
            p.naive().run(f, timed ? start + nanos : Long.MAX_VALUE);
        } catch (NaiveWait.Expired e) {
            if (f.isPending()) { // this caller's limit: the wait goes on without it
                f.unlink(me);
                leave(f, p);
                throw new TimeoutException();
            }
        } catch (InterruptedException e) {
            if (f.isPending()) {
                f.unlink(me);
                leave(f, p);
                throw e;
            }
            Thread.currentThread().interrupt(); // decided meanwhile: report it, keep the flag
        } catch (Throwable e) {
            failedBy(f, e);
        }
    }

    /**
     * The inline takeover (DESIGN §5) by a joiner the policy allows: it claims the plan (one CAS: one
     * watcher at a time), leaves the stack and the parker's watch before its first query, and runs
     * it. A joiner with a limit does not run a {@code block} plan (the vendor's wait has no bound):
     * it hands the claimed plan to the runner and waits on the stack, where its limit and interrupt
     * end its own wait. True when this thread ran the plan (having unlinked {@code me}). Either way
     * it frees the place {@link Inline.Plan#takenBy} took for it.
     */
    static boolean joinerRuns(GpuFuture<?> f, Inline.Plan p, GpuFuture.Joiner me, boolean timed, long start, long nanos)
            throws InterruptedException, TimeoutException {
        try {
            if (!f.claimPlan()) return false;
            if (timed && p.naive().plan() instanceof WaitPlan.Block) {
                handOff(f, p);
                return false;
            }
            f.unlink(me);
            if (!f.controls.skipsWithdraw()) f.lineWait.withdraw(); // negative control: the line that makes one watcher, removed
            run(f, p, timed, start, nanos);
            return true;
        } finally {
            p.released(); // the place Inline.Plan.takenBy took, whether this thread ran the plan or not
        }
    }

    /**
     * This thread leaves the plan early and the wait goes on. Where a parker watches such waits (the
     * std host), the wait goes back to it, as a virtual thread's wait is watched: its withdrawal is
     * taken back if the parker has not drained it, else the wait registers again (the registration's
     * re-check completes it if its word arrived meanwhile), so no thread polls it alone. Elsewhere a
     * runner takes the plan over ({@link #handOff}).
     */
    static void leave(GpuFuture<?> f, Inline.Plan p) {
        if (p.parkerWatch() == null) {
            handOff(f, p);
            return;
        }
        LineWait w = f.lineWait;
        if (!f.controls.skipsRevoke() && w.revokeWithdrawal()) { // the parker never dropped it (negative control: the line removed)
            if (!f.isPending()) w.withdraw(); // the one taken back was a cancel's (its settle came first): offer it again
            return;
        }
        if (!f.isPending()) return;
        w.givenBack(); // before the offer: the intake checks it does not hold the wait already
        p.parkerWatch().accept(w);
    }

    /** A throwable from the port ends the wait for everyone, coded (a second joiner must not park for ever). */
    private static void failedBy(GpuFuture<?> f, Throwable e) {
        ReactorException coded = PortFault.coded("call", e); // a port's own calls are coded, named, in NaiveWait's Bounded
        if (f.fail(coded) && coded.code() != ErrorCode.LineClosed) portFailedEvent(f, coded);
    }

    /** JFR: the port this thread queried failed this wait (a parker reports its own port failures). */
    private static void portFailedEvent(GpuFuture<?> f, ReactorException e) {
        MemoryDescriptor d = f.lineWait.descriptor();
        PortFailureEvent.emit(Reports.IN_PLACE, d.line().name(), d.slot().index(), 1, e); // a joiner's own thread
    }

    /**
     * Runs {@code f}'s plan on a runner thread: nobody is joining to run it. If the runner refuses
     * (the reactor closed), this thread settles the wait as a run after the close does: one query
     * of its port, else {@link ErrorCode#ShutDown} ({@link NaiveWait#afterClose}).
     */
    static void handOff(GpuFuture<?> f, Inline.Plan p) {
        Runnable task = () -> {
            try {
                run(f, p, false, 0, 0);
            } catch (InterruptedException | TimeoutException e) {
                // the runner was interrupted: run handed the plan on again
            }
        };
        Executor r = p.runner();
        try {
            if (r != null) r.execute(task); else Thread.startVirtualThread(task);
        } catch (RuntimeException e) {
            try {
                p.naive().afterClose(f, new ReactorException(ErrorCode.ShutDown, "reactor"));
            } catch (Throwable t) {
                failedBy(f, t);
            }
        }
    }

    /**
     * The deadline sleep of a thread running the plan: parks until {@code atNanos} on {@code clock},
     * or until {@code f} leaves {@code PENDING} (the runner is on the joiner stack, so the move unparks it).
     */
    static void sleepWhilePending(GpuFuture<?> f, Clock clock, long atNanos) throws InterruptedException {
        long left;
        while (f.isPending() && (left = atNanos - clock.nanos()) > 0) {
            LockSupport.parkNanos(f, left);
            if (Thread.interrupted()) throw new InterruptedException();
        }
    }
}
