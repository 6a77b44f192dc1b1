package dev.gpureactor.loom;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.DeadlinePlan;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Wait;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import dev.gpureactor.park.PortFault;
import dev.gpureactor.parker.LineWait;
import dev.gpureactor.parker.PointKeyFault;

import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The {@code naive} executor kind: the joining thread runs the {@link WaitPlan} itself through the
 * core's {@link Wait} driver (OS sleep to the prediction, then park or poll), then settles the
 * future. On a virtual thread its sleeps and {@code parkNanos} unmount; a blocking vendor call
 * (plan {@code block}) would pin its carrier, which is why {@code gpu-reactor} exists.
 *
 * <p>The port the driver sees ends the wait early ({@link Expired}) at the joiner's deadline, and
 * as soon as the future left {@code PENDING} another way (cancelled, or the line or reactor
 * closed: the reactor's close fails every run it tracks in {@link PlanRuns}): a cancelled wait must
 * not keep its runner until the device finishes, nor a closed reactor's. Both are checked
 * at every query and park, so they are seen within one park bound; the deadline sleep parks on the
 * future and a cancel unparks it at once; the {@code block} plan cannot be ended early (the
 * vendor's blocking wait has no bound), so a joiner with a limit leaves it to the runner
 * ({@link NaiveRunner#joinerRuns}).
 *
 * <p>As the parker does, under a {@code flag} plan a port that says done while the word never
 * reached its target completes the wait with a {@link ErrorCode#WordNeverWritten} warning, raised
 * only by whoever completed the wait (a platform joiner and the parker may race on one future);
 * and a wait whose line closed ends with {@link ErrorCode#LineClosed} at its next step.
 */
record NaiveWait(WaitPlan plan, PointTable<Object> points, Clock clock, Consumer<Warning> warnings, PlanRuns runs) {
    /** A driver whose runs nothing closes (rigs outside a reactor). */
    NaiveWait(WaitPlan plan, PointTable<Object> points, Clock clock, Consumer<Warning> warnings) {
        this(plan, points, clock, warnings, new PlanRuns());
    }

    /** The wait ended without the device: the joiner's own time limit passed, or the future was abandoned. */
    static final class Expired extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Expired() { super(null, null, false, false); }
    }

    /**
     * Runs {@code f}'s plan on this thread until the device, the joiner's deadline ({@link Expired}),
     * or another move of the future (a cancel, the reactor's close through {@link PlanRuns}) ends it.
     * On a closed reactor it settles {@code f} at once ({@link #afterClose}).
     */
    void run(GpuFuture<?> f, long deadlineNanos) throws InterruptedException {
        ReactorException closed = runs.enter(f);
        if (closed != null) {
            afterClose(f, closed);
            return;
        }
        try {
            runTracked(f, deadlineNanos);
        } finally {
            runs.exit(f);
        }
    }

    private void runTracked(GpuFuture<?> f, long deadlineNanos) throws InterruptedException {
        LineWait w = f.lineWait;
        CompletionPort port = new Bounded(w.port(), deadlineNanos, f);
        OptionalLong sleep = OptionalLong.empty();
        try {
            if (plan.predict().isPresent() && w.pointKey != null) sleep = points.sleepNanos(w.pointKey, plan.predict().get());
        } catch (Throwable t) { // the key's hashCode or equals (a user's): the wait runs unpredicted
            warnings.accept(PointKeyFault.dropped(w.pointKey, t));
        }
        if (sleep.isPresent() && deadlineNanos != Long.MAX_VALUE) {
            sleep = OptionalLong.of(Math.min(sleep.getAsLong(), Math.max(0, deadlineNanos - System.nanoTime())));
        }
        // The deadline sleep parks on the future (its runner is on the joiner stack): a cancel ends it at once.
        Outcome o = Wait.run(plan, port, clock, at -> NaiveRunner.sleepWhilePending(f, clock, at), sleep);
        if (!signal(f)) return; // settled elsewhere (a parker, a cancel): it speaks for the outcome
        if (w.pointKey != null) {
            DeadlinePlan d = plan.predict().orElse(null);
            try {
                if (d != null) points.observe(w.pointKey, d, o);
            } catch (OutOfMemoryError e) {
                throw e; // the estimate's own allocation, not the key's
            } catch (Throwable t) { // the key's: its outcome is dropped, the wait (settled already) keeps its own
                warnings.accept(PointKeyFault.dropped(w.pointKey, t));
            }
        }
    }

    /**
     * The first run of a wait after the reactor closed (nobody watched it before): the port is asked
     * once, so work the device finished completes as at any time, and failed work fails with its own
     * code (the port's throw, to the caller as any port failure); pending work, or a closed line,
     * fails with {@code why}.
     */
    void afterClose(GpuFuture<?> f, ReactorException why) {
        boolean done;
        try {
            done = !f.descriptor().line().isClosed() && f.lineWait.port().query();
        } catch (Throwable e) { // a checked exception a port throws undeclared too (PortFault)
            throw PortFault.coded("query", e); // to the caller as any port failure: it fails the wait with it
        }
        if (done) signal(f); else f.fail(why);
    }

    /** The port said done: signals {@code f}; a flag plan's word not reached is warned by whoever completed it. */
    private boolean signal(GpuFuture<?> f) {
        boolean stores;
        try {
            stores = plan instanceof WaitPlan.FlagWait && f.lineWait.port().storesIntoLine();
        } catch (Throwable e) {
            throw PortFault.coded("storesIntoLine", e); // to the caller as any port failure: it fails the wait with it
        }
        boolean neverWritten = stores && !f.descriptor().isComplete();
        if (!f.signal()) return false;
        if (neverWritten) warnings.accept(Warning.of(ErrorCode.WordNeverWritten, f.descriptor()));
        return true;
    }

    /** A port whose park and query end at the joiner's deadline ({@code MAX_VALUE}: none) or once {@code owner} is settled. */
    private record Bounded(CompletionPort inner, long deadline, GpuFuture<?> owner) implements CompletionPort {
        @Override
        public boolean query() {
            lineOpen();
            if (innerQuery()) return true;
            if (abandoned() || past()) throw new Expired();
            return false;
        }

        @Override
        public void block() throws InterruptedException {
            try {
                inner.block();
            } catch (InterruptedException e) {
                throw e; // the thread's interrupt: the joiner's, not the port's failure
            } catch (Throwable e) {
                throw PortFault.coded("block", e);
            }
        }

        @Override
        public void arm() {
            try {
                inner.arm();
            } catch (Throwable e) {
                throw PortFault.coded("arm", e);
            }
        }

        @Override
        public boolean park(long boundNanos) throws InterruptedException {
            lineOpen();
            if (abandoned()) throw new Expired();
            if (deadline == Long.MAX_VALUE) return innerPark(boundNanos);
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                if (innerQuery()) return true;
                throw new Expired();
            }
            return innerPark(Math.min(boundNanos, left));
        }

        /** The port's own park; what it throws (but the thread's interrupt) is coded with the call's name. */
        private boolean innerPark(long boundNanos) throws InterruptedException {
            try {
                return inner.park(boundNanos);
            } catch (InterruptedException e) {
                throw e; // the thread's interrupt: the joiner's, not the port's failure
            } catch (Throwable e) {
                throw PortFault.coded("park", e);
            }
        }

        /** The port's own query; what it throws is coded with the call's name (PortFault). */
        private boolean innerQuery() {
            try {
                return inner.query();
            } catch (Throwable e) { // query declares no InterruptedException: one thrown undeclared is the port's failure
                throw PortFault.coded("query", e);
            }
        }

        /**
         * A closed line ends the wait with LineClosed, as the parker's waiters end: the port need not
         * read the line (a query-only port does not), so without this the wait would outlive it.
         */
        private void lineOpen() {
            CompletionLine line = owner.descriptor().line();
            if (line.isClosed()) throw new ReactorException(ErrorCode.LineClosed, line.name(), "wait");
        }

        private boolean abandoned() { return owner.rawState() != GpuFuture.PENDING; }

        private boolean past() { return deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0; }
    }
}
