package dev.gpureactor.core;

/**
 * The optional deadline part of a plan: sleep until the point's predicted completion minus
 * {@code marginNanos}, then park. A computed sleep under {@code minSleepNanos} is skipped, no single
 * sleep is longer than {@code maxSleepNanos}, and the estimator keeps the last {@code window} exact
 * residuals per readback point.
 *
 * <p>The fields are nanoseconds, in whole microseconds (the text's unit) up to
 * {@link #SLEEP_US_MAX} µs, so every plan that exists prints as text that parses back to it.
 *
 * @param marginNanos the margin, in nanoseconds
 * @param minSleepNanos the min sleep, in nanoseconds
 * @param maxSleepNanos the max sleep, in nanoseconds
 * @param window the window
 */
public record DeadlinePlan(long marginNanos, long minSleepNanos, long maxSleepNanos, int window) {
    /** Largest window the grammar accepts. */
    public static final int WINDOW_MAX = 16;
    /** Largest margin, min_sleep or max_sleep the grammar states, in µs (60 s): far beyond any useful sleep. */
    public static final long SLEEP_US_MAX = 60_000_000;

    /**
     * Checks every field against the grammar's bounds (whole microseconds, within
     * {@link #SLEEP_US_MAX}; a window of 1 to {@link #WINDOW_MAX}), else a coded
     * {@link ErrorCode#InvalidArgument}.
     */
    public DeadlinePlan {
        if (marginNanos < 0 || marginNanos > SLEEP_US_MAX * 1000 || marginNanos % 1000 != 0) {
            throw bad("margin_ns", marginNanos, WHOLE_US);
        }
        if (minSleepNanos < 0 || minSleepNanos > SLEEP_US_MAX * 1000 || minSleepNanos % 1000 != 0) {
            throw bad("min_sleep_ns", minSleepNanos, WHOLE_US);
        }
        if (maxSleepNanos < 0 || maxSleepNanos > SLEEP_US_MAX * 1000 || maxSleepNanos % 1000 != 0) {
            throw bad("max_sleep_ns", maxSleepNanos, WHOLE_US);
        }
        if (maxSleepNanos < minSleepNanos) throw bad("max_sleep_ns", maxSleepNanos, ">= min_sleep_ns (" + minSleepNanos + ")");
        if (window < 1 || window > WINDOW_MAX) throw bad("window", window, "1.." + WINDOW_MAX);
    }

    /** The plan text states whole microseconds, so a plan that exists is one {@link WaitPlan#label()} can print. */
    private static final String WHOLE_US = "whole microseconds in 0.." + SLEEP_US_MAX * 1000 + " ns";

    private static ReactorException bad(String name, long value, String allowed) {
        return new ReactorException(ErrorCode.InvalidArgument, name, value, allowed);
    }
}
