package dev.gpureactor.loom;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.DeadlinePlan;
import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.Sleeper;
import dev.gpureactor.core.Wait;
import dev.gpureactor.core.WaitPlan;

import java.util.OptionalLong;

/**
 * The {@code naive} executor kind: the joining thread runs the {@link WaitPlan} itself through the
 * core's {@link Wait} driver (OS sleep to the prediction, then park or poll), then settles the
 * future. On a virtual thread its sleeps and {@code parkNanos} unmount; a blocking vendor call
 * (plan {@code block}) would pin its carrier, which is why {@code gpu-reactor} exists.
 */
record NaiveWait(WaitPlan plan, PointTable<Object> points, Clock clock, Sleeper sleeper) {
    /** The joiner's own time limit passed during the inline wait. */
    static final class Expired extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Expired() { super(null, null, false, false); }
    }

    void run(GpuFuture<?> f, long deadlineNanos) throws InterruptedException {
        CompletionPort port = f.port();
        if (deadlineNanos != Long.MAX_VALUE) port = new Bounded(port, deadlineNanos);
        OptionalLong sleep = plan.predict().isPresent() && f.pointKey != null
                ? points.sleepNanos(f.pointKey, plan.predict().get()) : OptionalLong.empty();
        if (sleep.isPresent() && deadlineNanos != Long.MAX_VALUE) {
            sleep = OptionalLong.of(Math.min(sleep.getAsLong(), Math.max(0, deadlineNanos - System.nanoTime())));
        }
        Outcome o = Wait.run(plan, port, clock, sleeper, sleep);
        if (f.signal() && f.pointKey != null) {
            DeadlinePlan d = plan.predict().orElse(null);
            if (d != null) points.observe(f.pointKey, d, o);
        }
    }

    /** A port whose park and query end at the joiner's deadline. */
    private record Bounded(CompletionPort inner, long deadline) implements CompletionPort {
        @Override
        public boolean query() {
            if (inner.query()) return true;
            if (System.nanoTime() - deadline >= 0) throw new Expired();
            return false;
        }

        @Override
        public void block() throws InterruptedException {
            inner.block();
        }

        @Override
        public void arm() { inner.arm(); }

        @Override
        public boolean park(long boundNanos) throws InterruptedException {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                if (inner.query()) return true;
                throw new Expired();
            }
            return inner.park(Math.min(boundNanos, left));
        }
    }
}
