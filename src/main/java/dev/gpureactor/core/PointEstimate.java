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
 * <p>Each sample also remembers whether it was censored, so the reactor can tell the
 * work's own durations (exact samples) from the halving's caution. {@link #spreadNanos} is the exact
 * samples' range, and {@link #resumeSleepNanos} the exact samples' floor: one late wake (the OS woke
 * the parker a little after a store that came early) halves the prediction for a whole window, and
 * without these the parker would take that window's waits for diffuse work and poll them in slices
 * from the halved prediction on (docs/PARKER.md, "the halving's window").
 *
 * <p><b>Threads.</b> A {@code PointEstimate} is immutable: {@link #observe} returns a new value.
 * It can be shared freely; {@link PointTable} serialises the read-modify-write per point.
 */
public final class PointEstimate {
    private static final PointEstimate COLD = new PointEstimate(new long[0], new boolean[0]);

    /** From this many exact samples the spread leaves out the largest (one outlier). */
    public static final int OUTLIER_FROM = 4;

    /** Samples, oldest first; never more than {@link DeadlinePlan#WINDOW_MAX}. */
    private final long[] samples;
    /** Whether {@code samples[i]} is a late wake's censored record rather than a measured residual. */
    private final boolean[] censored;

    private PointEstimate(long[] samples, boolean[] censored) {
        this.samples = samples;
        this.censored = censored;
    }

    /** {@return no samples: the first wait at a point does not sleep} */
    public static PointEstimate cold() { return COLD; }

    /** {@return the minimum of the kept samples, or empty before the first} */
    public OptionalLong predictedNanos() {
        if (samples.length == 0) return OptionalLong.empty();
        long min = Long.MAX_VALUE;
        for (long s : samples) min = Math.min(min, s);
        return OptionalLong.of(min);
    }

    /**
     * {@return the spread of the kept exact samples, 0 with fewer than two: how far apart the work's recent
     * completions came} From the smallest to the largest, or with {@link #OUTLIER_FROM} or more exact samples to
     * the second largest: one slow completion (a device thread the OS woke late, a preempted stream) does not make
     * a sharp point diffuse for a whole window, while work that really spreads has many samples far apart. A
     * censored sample is no completion time, so it is not part of it. The reactor uses it to size how long a
     * parker watches past its predicted wake.
     */
    public long spreadNanos() {
        long min = Long.MAX_VALUE, max = Long.MIN_VALUE, second = Long.MIN_VALUE;
        int n = 0;
        for (int i = 0; i < samples.length; i++) {
            if (censored[i]) continue;
            long v = samples[i];
            min = Math.min(min, v);
            if (v > max) {
                second = max;
                max = v;
            } else if (v > second) {
                second = v;
            }
            n++;
        }
        if (n < 2) return 0;
        return (n >= OUTLIER_FROM ? second : max) - min;
    }

    /**
     * After a wake at {@link #sleepNanos} found nothing: how long from the wait's start to sleep
     * before looking again, or empty to watch on from that wake. Present only when the newest sample
     * is exact (the work's duration was just measured, after any late wake) and the smallest exact
     * sample lies past the prediction, that is when the prediction is a censored late wake's halving
     * and not the work: then the work has not lately come before its exact floor, and the parker
     * sleeps to it (less the margin, within min_sleep and max_sleep as {@link #sleepNanos}). After a
     * late wake itself (newest censored) it is empty, so the next wait is watched from the halved
     * prediction and measures the work exactly: work that really got faster is found at once, and
     * its exact sample lowers the floor.
     *
     * @param plan the wait plan
     * @return the sleep, or empty for none
     */
    public OptionalLong resumeSleepNanos(DeadlinePlan plan) {
        if (samples.length == 0 || censored[samples.length - 1]) return OptionalLong.empty();
        long floor = Long.MAX_VALUE, predicted = Long.MAX_VALUE;
        for (int i = 0; i < samples.length; i++) {
            predicted = Math.min(predicted, samples[i]);
            if (!censored[i]) floor = Math.min(floor, samples[i]);
        }
        if (floor <= predicted) return OptionalLong.empty(); // the prediction is the work's own floor
        return sleepFor(floor, plan);
    }

    /**
     * {@return how long to sleep from the wait's start; empty means do not sleep} Never above max_sleep.
     *
     * @param plan the wait plan
     */
    public OptionalLong sleepNanos(DeadlinePlan plan) {
        OptionalLong predicted = predictedNanos();
        return predicted.isEmpty() ? OptionalLong.empty() : sleepFor(predicted.getAsLong(), plan);
    }

    /** The sleep before a completion expected {@code expectedNanos} after the start: less the margin, skipped or capped per the plan. */
    private static OptionalLong sleepFor(long expectedNanos, DeadlinePlan plan) {
        long sleep = expectedNanos - plan.marginNanos();
        if (sleep <= 0 || sleep < plan.minSleepNanos()) return OptionalLong.empty();
        long capped = Math.min(sleep, plan.maxSleepNanos());
        return capped > 0 ? OptionalLong.of(capped) : OptionalLong.empty(); // max_sleep 0: never sleep
    }

    /**
     * {@return this estimate with the outcome of one more wait folded in, keeping the last {@code plan.window()}
     * samples}
     *
     * @param plan the wait plan
     * @param outcome the outcome
     */
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
        boolean[] nextCensored = new boolean[keep];
        System.arraycopy(samples, samples.length - (keep - 1), next, 0, keep - 1);
        System.arraycopy(censored, censored.length - (keep - 1), nextCensored, 0, keep - 1);
        next[keep - 1] = sample;
        nextCensored[keep - 1] = outcome instanceof Outcome.Late;
        return new PointEstimate(next, nextCensored);
    }

    /**
     * {@return this estimate with {@code outcomes} folded in, in order: exactly {@link #observe} applied to each
     * (a late wake's censored sample reads the prediction of the samples kept at its turn), in one allocation} A
     * parker's scan completes every wait a store reached at once (a fan-out: a thousand waits of one point), and
     * one {@code observe} each copied the window a thousand times.
     *
     * @param plan the wait plan
     * @param outcomes the outcomes
     */
    public PointEstimate observeAll(DeadlinePlan plan, List<? extends Outcome> outcomes) {
        long[] values = new long[outcomes.size()];
        boolean[] late = new boolean[values.length];
        int n = 0;
        for (Outcome o : outcomes) {
            switch (o) {
                case Outcome.Immediate i -> values[n] = i.residualNanos();
                case Outcome.Exact e -> values[n] = e.residualNanos();
                case Outcome.Late l -> {
                    values[n] = l.wokeNanos();
                    late[n] = true;
                }
                case Outcome.Blocked b -> { continue; } // teaches nothing
            }
            n++;
        }
        return fold(plan.window(), values, late, false, n);
    }

    /**
     * {@return this estimate with a parker's run of {@code n} outcomes of one kind folded in, in order:
     * exactly {@link #observe} of an {@link Outcome.Late} ({@code late}) or an {@link Outcome.Exact} of
     * each of {@code residuals[0, n)}} What a scan completes is all exact, or all late after a deadline
     * sleep; as primitives, nothing is allocated per wait, and an exact run longer than the window
     * folds only its last {@code window} (the others would be shifted out).
     *
     * @param plan the wait plan
     * @param residuals the residuals (or, for late wakes, the times woken), nanoseconds
     * @param n how many of them
     * @param late whether they are late wakes
     */
    public PointEstimate observeRun(DeadlinePlan plan, long[] residuals, int n, boolean late) {
        return fold(plan.window(), residuals, null, late, n);
    }

    /**
     * The one fold: {@code values[0, n)} in order, each censored where {@code lates[i]} (or, with
     * {@code lates} null, where {@code allLate}), keeping the last {@code window} samples. A censored
     * sample reads the samples kept at its turn; an exact one does not, so a tail of {@code window}
     * exact samples alone decides the result and the fold starts there.
     */
    private PointEstimate fold(int window, long[] values, boolean[] lates, boolean allLate, int n) {
        if (n == 0) return this;
        int from = 0;
        if (n > window) {
            boolean lateTail = allLate;
            if (lates != null) for (int i = n - window; i < n && !lateTail; i++) lateTail = lates[i];
            if (!lateTail) from = n - window;
        }
        long[] buf = Arrays.copyOf(samples, samples.length + (n - from));
        boolean[] cbuf = Arrays.copyOf(censored, buf.length);
        int end = samples.length, kept = samples.length;
        for (int i = from; i < n; i++) {
            boolean late = lates == null ? allLate : lates[i];
            long v = Math.max(0, values[i]);
            cbuf[end] = late;
            buf[end] = late ? Math.min(v, minOf(buf, end - kept, end)) / 2 : v;
            end++;
            kept = Math.min(window, kept + 1);
        }
        return new PointEstimate(Arrays.copyOfRange(buf, end - kept, end), Arrays.copyOfRange(cbuf, end - kept, end));
    }

    /** The smallest of {@code v[from, to)}; {@code Long.MAX_VALUE} when empty (a cold point predicts nothing). */
    private static long minOf(long[] v, int from, int to) {
        long min = Long.MAX_VALUE;
        for (int i = from; i < to; i++) min = Math.min(min, v[i]);
        return min;
    }

    /** {@return how many samples are kept} */
    public int sampleCount() { return samples.length; }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("PointEstimate[");
        for (int i = 0; i < samples.length; i++) b.append(i == 0 ? "" : ", ").append(samples[i]).append(censored[i] ? " (late)" : "");
        return b.append(']').toString();
    }
}
