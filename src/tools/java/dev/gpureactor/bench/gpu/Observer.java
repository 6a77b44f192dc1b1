package dev.gpureactor.bench.gpu;

import java.util.concurrent.locks.LockSupport;

/**
 * A platform thread spinning on the line's word to time-stamp the moment each store becomes
 * visible to the CPU: the zero of the store → waiter-running latency, the same for every waiter
 * (a GPU store carries no time the host can read). It reads, never writes, the line, so it does
 * not disturb a monitor armed on it; it costs one core while it runs.
 *
 * <p><b>Ordering.</b> The stamp goes through a {@link Stamp} (time plain, then sequence number
 * release). The harness asks for {@code s} only after the waiter has seen it, and queues {@code
 * s + 1} only after reading, so the time it reads is that of {@code s}.
 */
final class Observer implements AutoCloseable {
    private final GpuRig rig;
    private final Thread thread;
    private final Stamp seen;
    private volatile boolean stop;

    Observer(GpuRig rig) {
        this.rig = rig;
        this.seen = new Stamp(rig.word());
        this.thread = Thread.ofPlatform().name("gar-gpu-observer").daemon(true).start(this::run);
    }

    private void run() {
        long last = seen.seq();
        while (!stop) {
            long w = rig.word(); // acquire
            if (w != last) {
                seen.publish(w, System.nanoTime());
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
        long at;
        while ((at = seen.atIfReached(seq)) < 0) {
            if (System.nanoTime() - end > 0) return -1;
            LockSupport.parkNanos(1_000);
        }
        return at;
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
