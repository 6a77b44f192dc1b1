package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.parker.LineGroup;
import dev.gpureactor.parker.LineWait;
import dev.gpureactor.core.Clock;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointEstimate;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Sleeper;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.ParkerRoster;
import dev.gpureactor.parker.PointKeyFault;
import dev.gpureactor.parker.ReactorCounters;
import dev.gpureactor.parker.SnapshotPark;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How a reactor starts a wait: the estimate of its point, the future, the fast paths (closed reactor, closed
 * line, a word already reached), and the registration with its line's parker ({@link ParkerRoster}). The
 * reactor's {@code await} calls {@link #start}; the settings each new parker takes are read from the builder
 * once, here, so a later change to the builder reaches no reactor built.
 */
final class WaitStarts {
    private final ExecutorKind kind;
    private final WaitPlan plan;
    /** The plan's text, computed once: each wait carries it for the JFR wait event. */
    private final String planLabel;
    /** Who runs the plan on a joining thread: one value for every await, so an await allocates none. */
    private final Inline inline;
    private final PointTable<Object> points;
    private final Clock clock = Clock.system();
    private final Executor callbacks;
    /** The reactor's reports: each wait's JFR event goes there (committed off the reactor's own threads). */
    private final ReactorWarnings warnings;
    /** Each line's parker and the registration of a wait with it. */
    private final ParkerRoster parkers;
    private final AtomicLong ids = new AtomicLong();
    /** The reactor's {@code closed}: a wait started after close fails at once. */
    private final BooleanSupplier closed;

    WaitStarts(ReactorSettings b, ReactorChoices choices, ExecutorKind kind, PointTable<Object> points,
               ReactorWarnings warnings, ReactorCounters counters, PlanRuns planRuns, CarrierPool pool, Executor callbacks,
               Executor planRunners, BooleanSupplier closed) {
        this.kind = kind;
        this.plan = b.plan;
        this.planLabel = b.plan.label();
        this.points = points;
        this.callbacks = callbacks;
        this.warnings = warnings;
        this.closed = closed;
        WaitPlan.FlagWait parkerPlan = b.plan instanceof WaitPlan.FlagWait f ? f
                : new WaitPlan.FlagWait(100_000, 1_000_000, b.plan.predict());
        SnapshotPark linePark = choices.linePark;
        long spin = b.parkSpinNanos;
        Supplier<Sleeper> sleeper = kind == ExecutorKind.IO_URING ? b.deadlineSleeper : null;
        boolean hosting = b.hosting;
        ParkerHooks hooks = b.parkerHooks;
        boolean carrierTurns = b.carrierTurns && pool != null;
        this.parkers = new ParkerRoster(choices.linesPerParker, line -> new LineParker(line, linePark, parkerPlan, points,
                clock, warnings, counters, spin, sleeper, pool, hosting, carrierTurns, hooks), points, closed, b.controls);
        if (carrierTurns) pool.betweenTasks(parkers::lendTurns);
        // Under gpu-reactor with a flag plan the parker watches and only a platform joiner runs the
        // plan (the std host); under the naive kind, or a plan the parker cannot watch, any joiner does.
        boolean parkerWatches = kind != ExecutorKind.NAIVE && plan instanceof WaitPlan.FlagWait;
        this.inline = new Inline.Plan(new NaiveWait(plan, points, clock, warnings, planRuns), parkerWatches ? this::watch : null, planRunners);
    }

    /**
     * Registers {@code w} with its line's parker: a wait as it starts, or one given back by a thread
     * that ran its plan and left early. A line that closed under the registration fails it
     * {@link ErrorCode#LineClosed}; a registration already made is failed and counted down by the
     * parker's close, which the line's close runs.
     */
    private void watch(LineWait w) {
        try {
            parkers.register(w.descriptor().line(), w);
        } catch (ReactorException e) {
            if (e.code() != ErrorCode.LineClosed) throw e;
            w.fail(e);
        }
    }

    /** Each line's parker. */
    ParkerRoster parkers() { return parkers; }

    /** The point's estimate; a user's key whose {@code hashCode} or {@code equals} throws is refused, coded, before any wait is made. */
    private PointEstimate estimate(Object pointKey) {
        try {
            return points.estimate(pointKey);
        } catch (Throwable t) {
            throw PointKeyFault.refused(pointKey, t);
        }
    }

    /** A new wait on {@code d}, settled by the word, the port, a cancel or the reactor's close. */
    <T> GpuFuture<T> start(MemoryDescriptor d, CompletionPort port, Supplier<? extends T> readback, Object pointKey) {
        long now = clock.nanos();
        long sleep = 0, resume = 0, spread = LineWait.NO_PREDICTION;
        if (plan.predict().isPresent()) {
            PointEstimate e = estimate(pointKey);
            sleep = e.sleepNanos(plan.predict().get()).orElse(0);
            // Past a prediction that a late wake halved, the work's exact floor (LineWatch.decide).
            resume = Math.max(sleep, e.resumeSleepNanos(plan.predict().get()).orElse(0));
            // The point's recent spread, uncapped: the turn spins past the wake only for a sharp point
            // (LineWatch.decide, "when speed pays").
            if (e.sampleCount() > 0) spread = e.spreadNanos();
        }
        GpuFuture<T> f = new GpuFuture<>(ids.incrementAndGet(), d, port, readback, callbacks, now, now + sleep, now + resume,
                spread, pointKey, planLabel, inline, warnings);
        if (closed.getAsBoolean()) {
            f.fail(new ReactorException(ErrorCode.ShutDown, "reactor"));
            return f;
        }
        try {
            if (d.line().isClosed()) {
                f.fail(new ReactorException(ErrorCode.LineClosed, d.line().name(), "wait"));
                return f;
            }
            boolean complete;
            try {
                complete = d.isComplete(); // fast path: one acquire load, no registration
            } catch (ReactorException e) {
                throw e; // LineClosed, below
            } catch (RuntimeException e) {
                // Memory this thread cannot read (confined to another thread): the wait fails coded,
                // as the parker fails the waits of a line it cannot read.
                f.fail(LineGroup.unreadable(d.line(), e));
                return f;
            }
            if (complete) {
                f.signal();
                return f;
            }
            if (kind == ExecutorKind.NAIVE || !(plan instanceof WaitPlan.FlagWait)) {
                return f; // the policy has its first joiner (or a stage's runner) run the plan
            }
            // A platform-thread joiner runs the plan itself (the std host); virtual threads wait for the parker.
            watch(f.lineWait);
        } catch (ReactorException e) {
            // The line closed under the fast path's read (its reads throw LineClosed): the wait fails
            // with that, like a wait that started on a closed line.
            if (e.code() != ErrorCode.LineClosed) throw e;
            f.fail(e);
        }
        return f;
    }
}
