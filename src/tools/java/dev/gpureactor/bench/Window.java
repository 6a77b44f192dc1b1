package dev.gpureactor.bench;

import org.HdrHistogram.Histogram;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one measuring window of a {@link WakeRig} saw, in raw form, so that windows of the same
 * strategy and wait length taken in several rounds add up into one {@link Cell}: latency counts add,
 * CPU and wall time add (so the merged CPU is total CPU over total time), wait sums add.
 */
public final class Window {
    private final Strategy strategy;
    private final long waitNanos;
    private final Histogram latency;
    private long waitSumNanos;
    private long wallNanos;
    private final Map<String, Long> cpuNanosByGroup;
    private final String note;

    Window(Strategy strategy, long waitNanos, Histogram latency, long waitSumNanos, long wallNanos, Map<String, Long> cpuNanosByGroup,
           String note) {
        this.strategy = strategy;
        this.waitNanos = waitNanos;
        this.latency = latency;
        this.waitSumNanos = waitSumNanos;
        this.wallNanos = wallNanos;
        this.cpuNanosByGroup = new TreeMap<>(cpuNanosByGroup);
        this.note = note;
    }

    public Strategy strategy() { return strategy; }

    public long waitNanos() { return waitNanos; }

    /** This window plus {@code other} (same strategy and wait length), as a new window. */
    public Window plus(Window other) {
        if (other.strategy != strategy || other.waitNanos != waitNanos) {
            throw new IllegalArgumentException("cannot add " + other.strategy + "@" + other.waitNanos + " to " + strategy + "@" + waitNanos);
        }
        Histogram h = latency.copy();
        h.add(other.latency);
        Window sum = new Window(strategy, waitNanos, h, waitSumNanos + other.waitSumNanos, wallNanos + other.wallNanos,
                cpuNanosByGroup, note.isEmpty() ? other.note : note);
        other.cpuNanosByGroup.forEach((k, v) -> sum.cpuNanosByGroup.merge(k, v, Long::sum));
        return sum;
    }

    public Cell toCell() {
        long n = latency.getTotalCount();
        long cpu = cpuNanosByGroup.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Double> byGroup = new TreeMap<>();
        if (wallNanos > 0) cpuNanosByGroup.forEach((k, v) -> byGroup.put(k, (double) v / wallNanos));
        return new Cell(strategy, waitNanos, n, latency.getValueAtPercentile(50), latency.getValueAtPercentile(99),
                latency.getValueAtPercentile(99.9), latency.getMaxValue(), n == 0 ? 0 : (double) waitSumNanos / n,
                wallNanos <= 0 ? 0 : (double) cpu / wallNanos, byGroup, note);
    }
}
