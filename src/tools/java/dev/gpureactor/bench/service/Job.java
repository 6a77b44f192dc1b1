package dev.gpureactor.bench.service;

import dev.gpureactor.backend.sim.SimStream;

import java.time.Duration;

/**
 * One request's GPU work: a kernel that writes the payload, 0.5–5 ms of work (log-uniform), then
 * a zero-length kernel that stamps the store's time, then the store of the stream's word.
 *
 * <p>Ordering: {@link #payload} and {@link #storeNanos} are plain fields written by the stream's
 * thread before its release store of the word; a handler reads them only after its wait saw the
 * word (an acquire load, or a future completed after one), so both are visible without a fence of
 * their own. {@link #signal} is written by the launching handler before it waits, and read by it.
 */
final class Job {
    private static final long MIN_WORK_NANOS = 500_000, MAX_WORK_NANOS = 5_000_000;

    final long id;
    long payload;      // written by the kernel (stream thread), read after the wait
    long storeNanos;   // nanoTime just before the store (stream thread), read after the wait
    SimStream.Signal signal;

    Job(long id) { this.id = id; }

    /** The payload request {@code id} must be answered with. */
    static long expected(long id) { return mix(id ^ 0x5DEECE66DL); }

    /** The request's work: log-uniform in 0.5–5 ms, fixed by its id. */
    static Duration work(long id) {
        double u = (mix(id) >>> 11) * 0x1.0p-53; // [0, 1)
        return Duration.ofNanos(Math.round(MIN_WORK_NANOS * Math.pow((double) MAX_WORK_NANOS / MIN_WORK_NANOS, u)));
    }

    /** The stream (of {@code streams}) request {@code id} runs on. */
    static int stream(long id, int streams) { return (int) Long.remainderUnsigned(mix(id + 0x9E3779B97F4A7C15L), streams); }

    void kernel() { payload = expected(id); }

    void stamp() { storeNanos = System.nanoTime(); }

    /** SplitMix64's finalizer: a fixed, well-spread function of the id. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
