package dev.gpureactor.bench.gpu;

import java.util.concurrent.locks.LockSupport;

/**
 * A platform thread spinning on the line's word to time-stamp the moment each store becomes
 * visible to the CPU: the zero of the store → waiter-running latency, the same for every waiter
 * (a GPU store carries no time the host can read). It reads, never writes, the line, so it does
 * not disturb a monitor armed on it; it costs one core while it runs.
 *
 * <p><b>Ordering.</b> {@code seenAt} is a plain field written before the volatile {@code seenSeq}
 * (release); a reader that loads {@code seenSeq} (acquire) and finds {@code s} reads the stamp of
 * {@code s} or of a later store. The harness asks only after the waiter has seen {@code s}, and
 * queues {@code s + 1} only after reading, so the stamp it reads is that of {@code s}.
 */
final class Observer implements AutoCloseable {
    private final GpuRig rig;
    private final Thread thread;
    private long seenAt;
    private volatile long seenSeq;
    private volatile boolean stop;

    Observer(GpuRig rig) {
        this.rig = rig;
        this.seenSeq = rig.word();
        this.thread = Thread.ofPlatform().name("gar-gpu-observer").daemon(true).start(this::run);
    }

    private void run() {
        long last = seenSeq;
        while (!stop) {
            long w = rig.word(); // acquire
            if (w != last) {
                seenAt = System.nanoTime();
                seenSeq = w; // release: publishes seenAt
                last = w;
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * When the store of {@code seq} was first seen, waiting up to {@code timeoutNanos} for the
     * observer to see it; -1 when it did not.
     */
    long seenAt(long seq, long timeoutNanos) {
        long end = System.nanoTime() + timeoutNanos;
        while (seenSeq - seq < 0) {
            if (System.nanoTime() - end > 0) return -1;
            LockSupport.parkNanos(1_000);
        }
        return seenAt;
    }

    @Override
    public void close() {
        stop = true;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
