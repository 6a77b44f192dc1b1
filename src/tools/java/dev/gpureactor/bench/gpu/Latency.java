package dev.gpureactor.bench.gpu;

import java.util.Arrays;

/**
 * A summary of measured durations, in nanoseconds: nearest-rank percentiles of the samples.
 *
 * @param count how many samples
 * @param p50   the median
 * @param p99   the 99th percentile
 * @param max   the largest
 * @param mean  the arithmetic mean
 */
public record Latency(int count, long p50, long p99, long max, long mean) {
    /** No samples. */
    public static final Latency NONE = new Latency(0, 0, 0, 0, 0);

    /** The summary of the first {@code n} values of {@code samples} (sorted here, in a copy). */
    public static Latency of(long[] samples, int n) {
        if (n <= 0) return NONE;
        long[] s = Arrays.copyOf(samples, n);
        Arrays.sort(s);
        long sum = 0;
        for (long v : s) sum += v;
        return new Latency(n, rank(s, 0.50), rank(s, 0.99), s[n - 1], sum / n);
    }

    /** The nearest-rank percentile: the smallest sample at or above fraction {@code q} of them. */
    private static long rank(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
