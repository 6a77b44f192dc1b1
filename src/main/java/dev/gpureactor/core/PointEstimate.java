package dev.gpureactor.core;

import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * The deadline estimate of one readback point: the last {@code window} residual samples, and the
 * sleep they ask for.
 *
 * <ul>
 *   <li>The prediction is the minimum of the kept samples; a cold point (no samples) never sleeps.
 *   <li>The sleep is prediction − margin, skipped below min_sleep (or at 0), capped at max_sleep.
 *   <li>An exact residual is kept as measured. A late wake is censored: it records
 *       {@code min(woke, predicted) / 2}, so it never raises the prediction, and a run of late wakes
 *       halves it each time. Waking early costs a little CPU; waking late costs latency: the
 *       asymmetry is the point.
 * </ul>
 *
 * <p><b>Threads.</b> A {@code PointEstimate} is immutable: {@link #observe} returns a new value.
 * It can be shared freely; {@link PointTable} serialises the read-modify-write per point.
 */
public final class PointEstimate {
    private static final PointEstimate COLD = new PointEstimate(new long[0]);

    /** Samples, oldest first; never more than {@link DeadlinePlan#WINDOW_MAX}. */
    private final long[] samples;

    private PointEstimate(long[] samples) {
        this.samples = samples;
    }

    /** No samples: the first wait at a point does not sleep. */
    public static PointEstimate cold() { return COLD; }

    /** The minimum of the kept samples, or empty before the first. */
    public OptionalLong predictedNanos() {
        if (samples.length == 0) return OptionalLong.empty();
        long min = Long.MAX_VALUE;
        for (long s : samples) min = Math.min(min, s);
        return OptionalLong.of(min);
    }

    /**
     * The spread of the kept samples (largest − smallest), 0 with fewer than two: how far past the
     * prediction (the smallest) a completion has recently come. Not part of the crate's estimator;
     * the reactor uses it to size how long a parker watches past its predicted wake.
     */
    public long spreadNanos() {
        if (samples.length < 2) return 0;
        long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        for (long s : samples) {
            min = Math.min(min, s);
            max = Math.max(max, s);
        }
        return max - min;
    }

    /** How long to sleep from the wait's start; empty means do not sleep. Never above max_sleep. */
    public OptionalLong sleepNanos(DeadlinePlan plan) {
        OptionalLong predicted = predictedNanos();
        if (predicted.isEmpty()) return OptionalLong.empty();
        long sleep = predicted.getAsLong() - plan.marginNanos();
        if (sleep <= 0 || sleep < plan.minSleepNanos()) return OptionalLong.empty();
        long capped = Math.min(sleep, plan.maxSleepNanos());
        return capped > 0 ? OptionalLong.of(capped) : OptionalLong.empty(); // max_sleep 0: never sleep
    }

    /** This estimate with the outcome of one more wait folded in, keeping the last {@code plan.window()} samples. */
    public PointEstimate observe(DeadlinePlan plan, Outcome outcome) {
        long sample = switch (outcome) {
            case Outcome.Immediate i -> Math.max(0, i.residualNanos());
            case Outcome.Exact e -> Math.max(0, e.residualNanos());
            case Outcome.Late l -> Math.min(Math.max(0, l.wokeNanos()), predictedNanos().orElse(Long.MAX_VALUE)) / 2;
            case Outcome.Blocked b -> -1;
        };
        if (sample < 0) return this;
        int keep = Math.min(plan.window(), samples.length + 1);
        long[] next = new long[keep];
        System.arraycopy(samples, samples.length - (keep - 1), next, 0, keep - 1);
        next[keep - 1] = sample;
        return new PointEstimate(next);
    }

    /**
     * This estimate with {@code outcomes} folded in, in order: exactly {@link #observe} applied to
     * each (a late wake's censored sample reads the prediction of the samples kept at its turn), in
     * one allocation. A parker's scan completes every wait a store reached at once (a fan-out: a
     * thousand waits of one point), and one {@code observe} each copied the window a thousand times.
     */
    public PointEstimate observeAll(DeadlinePlan plan, List<? extends Outcome> outcomes) {
        int window = plan.window();
        long[] buf = Arrays.copyOf(samples, samples.length + outcomes.size());
        int end = samples.length, kept = samples.length;
        boolean changed = false;
        for (Outcome o : outcomes) {
            long sample = switch (o) {
                case Outcome.Immediate i -> Math.max(0, i.residualNanos());
                case Outcome.Exact e -> Math.max(0, e.residualNanos());
                case Outcome.Late l -> Math.min(Math.max(0, l.wokeNanos()), minOf(buf, end - kept, end)) / 2;
                case Outcome.Blocked b -> -1;
            };
            if (sample < 0) continue;
            buf[end++] = sample;
            kept = Math.min(window, kept + 1);
            changed = true;
        }
        return changed ? new PointEstimate(Arrays.copyOfRange(buf, end - kept, end)) : this;
    }

    /** The smallest of {@code v[from, to)}; {@code Long.MAX_VALUE} when empty (a cold point predicts nothing). */
    private static long minOf(long[] v, int from, int to) {
        long min = Long.MAX_VALUE;
        for (int i = from; i < to; i++) min = Math.min(min, v[i]);
        return min;
    }

    /** How many samples are kept. */
    public int sampleCount() { return samples.length; }

    @Override
    public String toString() { return "PointEstimate" + Arrays.toString(samples); }
}
