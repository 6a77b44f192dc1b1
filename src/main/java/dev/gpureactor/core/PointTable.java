package dev.gpureactor.core;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deadline estimates of many readback points (a kernel, a decode step, a stream), by key.
 *
 * <p><b>Threads.</b> Safe to share. Each point's {@link PointEstimate} is an immutable value;
 * {@link #observe} replaces it inside {@link ConcurrentHashMap#compute}, which runs the update for
 * one key at a time, so no concurrent observation is lost and every reader sees a whole estimate.
 *
 * @param <K> the key's type
 */
public final class PointTable<K> {
    private final ConcurrentHashMap<K, PointEstimate> points = new ConcurrentHashMap<>();

    /** An empty table: every point starts cold. */
    public PointTable() {}

    /**
     * {@return the sleep the point asks for under {@code plan}; empty for a cold point}
     *
     * @param key the key
     * @param plan the wait plan
     */
    public OptionalLong sleepNanos(K key, DeadlinePlan plan) {
        return estimate(key).sleepNanos(plan);
    }

    /**
     * Folds one wait's outcome into the point's estimate.
     *
     * @param key the key
     * @param plan the wait plan
     * @param outcome the outcome
     */
    public void observe(K key, DeadlinePlan plan, Outcome outcome) {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(outcome, "outcome");
        points.compute(Objects.requireNonNull(key, "key"), (k, old) -> {
            PointEstimate next = (old == null ? PointEstimate.cold() : old).observe(plan, outcome);
            return next.sampleCount() == 0 ? null : next; // an outcome that taught nothing adds no point
        });
    }

    /**
     * Folds {@code outcomes}, in order, into the point's estimate in one update: what
     * {@link #observe} once each would leave, with one {@code compute} and one estimate allocated
     * (a store that reached many waits of one point). Readers see the estimate before or after all.
     *
     * @param key the key
     * @param plan the wait plan
     * @param outcomes the outcomes
     */
    public void observeAll(K key, DeadlinePlan plan, List<? extends Outcome> outcomes) {
        Objects.requireNonNull(plan, "plan");
        if (outcomes.isEmpty()) return;
        points.compute(Objects.requireNonNull(key, "key"), (k, old) -> {
            PointEstimate next = (old == null ? PointEstimate.cold() : old).observeAll(plan, outcomes);
            return next.sampleCount() == 0 ? null : next; // outcomes that taught nothing add no point
        });
    }

    /**
     * Folds a parker's run of {@code n} outcomes of one kind into the point's estimate in one update:
     * what {@link #observe} of an {@link Outcome.Exact} (or, {@code late}, an {@link Outcome.Late}) of
     * each of {@code residuals[0, n)} would leave ({@link PointEstimate#observeRun}).
     *
     * @param key the key
     * @param plan the wait plan
     * @param residuals the residuals, nanoseconds (read during the call only)
     * @param n how many of them
     * @param late whether they are late wakes
     */
    public void observeRun(K key, DeadlinePlan plan, long[] residuals, int n, boolean late) {
        Objects.requireNonNull(plan, "plan");
        if (n == 0) return;
        points.compute(Objects.requireNonNull(key, "key"), (k, old) -> {
            PointEstimate next = (old == null ? PointEstimate.cold() : old).observeRun(plan, residuals, n, late);
            return next.sampleCount() == 0 ? null : next;
        });
    }

    /**
     * {@return the point's current estimate (cold if never observed)}
     *
     * @param key the key
     */
    public PointEstimate estimate(K key) {
        return points.getOrDefault(Objects.requireNonNull(key, "key"), PointEstimate.cold());
    }

    /**
     * Drops the point's estimate (its readback point is gone); a later observation starts it cold.
     *
     * @param key the key
     */
    public void forget(K key) {
        points.remove(Objects.requireNonNull(key, "key"));
    }

    /**
     * Points with an estimate.
     *
     * @return the count as read now
     */
    public int size() { return points.size(); }
}
