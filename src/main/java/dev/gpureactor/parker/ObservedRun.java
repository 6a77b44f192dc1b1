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
 *
 * <p>A point key is a user's object: its {@code equals} and {@code hashCode} run here, on the parker. One that
 * throws loses only its own runs (warned once, {@code InvalidArgument}); it must not end the turn, which would
 * fail every wait of the parker.
 */
final class ObservedRun {
    private final PointTable<Object> points;
    private final DeadlinePlan plan;
    private final Reports warnings;
    /** Whether a key that threw was warned about (once a watch: a key that always throws would flood the sink). */
    private boolean warned;
    /** The run's residuals, oldest first, {@link #count} of them, all exact or all late ({@link #late}). */
    private long[] residuals = new long[16];
    private int count;
    private boolean late;
    /** The point of the run; null when nothing is queued. */
    private Object key;
    /**
     * A sorted scan's outcomes held by position until it ends ({@link #hold}), or null: the points (null where
     * none was held) and residuals. Taken while each wait is at hand, so the slot-order pass after the scan
     * reads two arrays, not every wait again.
     */
    private Object[] heldKeys;
    private long[] heldResiduals;

    ObservedRun(PointTable<Object> points, DeadlinePlan plan, Reports warnings) {
        this.points = points;
        this.plan = plan;
        this.warnings = warnings;
    }

    /** Queues one wait's outcome; another point's, or another kind, first folds in the run so far. */
    void add(Object pointKey, long residual, boolean lateWake) {
        if (key != null && (late != lateWake || key != pointKey && !sameKey(pointKey))) flush();
        key = pointKey;
        late = lateWake;
        if (count == residuals.length) residuals = Arrays.copyOf(residuals, count * 2);
        residuals[count++] = residual;
    }

    /** Makes room to hold {@code n} outcomes by position; false without memory for it. */
    boolean holdFor(int n) {
        try {
            heldKeys = new Object[n];
            heldResiduals = new long[n];
            return true;
        } catch (OutOfMemoryError e) {
            heldKeys = null;
            heldResiduals = null;
            return false;
        }
    }

    /** Holds one wait's outcome at {@code position} of the scan's slot order. */
    void hold(int position, Object pointKey, long residual) {
        heldKeys[position] = pointKey;
        heldResiduals[position] = residual;
    }

    /** Queues the held outcomes in slot order (one run per point, as an unsorted scan's), and lets them go. */
    void addHeld(boolean lateWake) {
        Object[] keys = heldKeys;
        long[] residuals = heldResiduals;
        heldKeys = null;
        heldResiduals = null;
        for (int i = 0; i < keys.length; i++) if (keys[i] != null) add(keys[i], residuals[i], lateWake);
    }

    /** Folds the queued run into its point's estimate (a scan's end, or another point's wait). */
    void flush() {
        if (key == null) return;
        try {
            points.observeRun(key, plan, residuals, count, late);
        } catch (OutOfMemoryError e) {
            throw e; // the estimate's own allocation: the loop's, not the key's
        } catch (Throwable t) { // the key's hashCode or equals (a user's): this run is lost, the turn goes on
            keyFailed(key, t);
        } finally {
            key = null;
            count = 0;
        }
    }

    /** The queued run's key equals {@code other}; a key whose {@code equals} throws equals none (it flushes, and is warned there). */
    private boolean sameKey(Object other) {
        try {
            return key.equals(other);
        } catch (Throwable t) {
            return false;
        }
    }

    private void keyFailed(Object failed, Throwable t) {
        if (warned) return;
        warned = true;
        warnings.accept(PointKeyFault.dropped(failed, t));
    }
}
