package dev.gpureactor.bench;

import java.util.Map;

/**
 * One strategy at one wait length: how fast its waiter ran again after the store, and what the
 * waiting cost in CPU.
 *
 * @param waitNanos      the requested wait (from the wait's start to the device's store)
 * @param waits          waits measured
 * @param p50Nanos       wake latency percentiles: the waiter running again minus the store's time
 * @param meanWaitNanos  the mean actual wait (start to store); above {@code waitNanos} by the device's own OS oversleep
 * @param cpuCores       CPU seconds per second of the waiting side (every platform thread but the device's and the harness's)
 * @param cpuByThreads   the same, by thread group (name without its trailing number)
 * @param note           what ran, where it differs from what was asked (a scheduler fallback), or ""
 */
public record Cell(Strategy strategy, long waitNanos, long waits, long p50Nanos, long p99Nanos, long p999Nanos,
                   long maxNanos, double meanWaitNanos, double cpuCores, Map<String, Double> cpuByThreads, String note) {
    public Cell {
        cpuByThreads = Map.copyOf(cpuByThreads);
    }

    public double p50Micros() { return p50Nanos / 1e3; }

    public double p99Micros() { return p99Nanos / 1e3; }

    public double p999Micros() { return p999Nanos / 1e3; }
}
