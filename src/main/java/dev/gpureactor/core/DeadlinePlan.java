package dev.gpureactor.core;

/**
 * The optional deadline part of a plan: sleep until the point's predicted completion minus
 * {@code marginNanos}, then park. A computed sleep under {@code minSleepNanos} is skipped, no single
 * sleep is longer than {@code maxSleepNanos}, and the estimator keeps the last {@code window} exact
 * residuals per readback point.
 */
public record DeadlinePlan(long marginNanos, long minSleepNanos, long maxSleepNanos, int window) {
    /** Largest window the grammar accepts. */
    public static final int WINDOW_MAX = 16;

    public DeadlinePlan {
        if (marginNanos < 0) throw bad("margin_ns", marginNanos, ">= 0");
        if (minSleepNanos < 0) throw bad("min_sleep_ns", minSleepNanos, ">= 0");
        if (maxSleepNanos < minSleepNanos) throw bad("max_sleep_ns", maxSleepNanos, ">= min_sleep_ns (" + minSleepNanos + ")");
        if (window < 1 || window > WINDOW_MAX) throw bad("window", window, "1.." + WINDOW_MAX);
    }

    private static ReactorException bad(String name, long value, String allowed) {
        return new ReactorException(ErrorCode.InvalidArgument, name, value, allowed);
    }
}
