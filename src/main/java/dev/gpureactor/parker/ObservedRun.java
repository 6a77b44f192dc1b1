package dev.gpureactor.parker;

import dev.gpureactor.core.DeadlinePlan;
import dev.gpureactor.core.PointTable;

import java.util.Arrays;

/**
 * A scan's completed waits on their way to the estimator. Consecutive waits of one point (a slot's
 * waits share its point by default) go in as one run of primitives, folded in by one
 * {@link PointTable#observeRun}: the same estimate as one {@code observe} each, without a
 * {@code compute}, a copied window or an outcome object per wait (a fan-out's thousand waits of one
 * point spent more of the parker's scan there than in their unparks). Owned, as its
 * {@link LineWatch}, by one thread at a time.
 */
final class ObservedRun {
    private final PointTable<Object> points;
    private final DeadlinePlan plan;
    /** The run's residuals, oldest first, {@link #count} of them, all exact or all late ({@link #late}). */
    private long[] residuals = new long[16];
    private int count;
    private boolean late;
    /** The point of the run; null when nothing is queued. */
    private Object key;

    ObservedRun(PointTable<Object> points, DeadlinePlan plan) {
        this.points = points;
        this.plan = plan;
    }

    /** Queues one wait's outcome; another point's, or another kind, first folds in the run so far. */
    void add(Object pointKey, long residual, boolean lateWake) {
        if (key != null && (late != lateWake || key != pointKey && !key.equals(pointKey))) flush();
        key = pointKey;
        late = lateWake;
        if (count == residuals.length) residuals = Arrays.copyOf(residuals, count * 2);
        residuals[count++] = residual;
    }

    /** Folds the queued run into its point's estimate (a scan's end, or another point's wait). */
    void flush() {
        if (key == null) return;
        try {
            points.observeRun(key, plan, residuals, count, late);
        } finally {
            key = null;
            count = 0;
        }
    }
}
