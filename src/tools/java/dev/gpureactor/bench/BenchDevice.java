package dev.gpureactor.bench;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;

import java.util.concurrent.locks.LockSupport;

/**
 * The simulated device of the wake benchmarks: one platform thread that, asked to store sequence
 * number {@code seq} at time {@code at}, waits until then as its {@link DeviceTiming} says,
 * records {@link System#nanoTime()} and stores {@code seq} into slot 0 of its line with release
 * semantics. Latency is measured from that recorded time, so however late the device is, the
 * waiter is judged from the store. The device thread's CPU is never charged to the waiting side.
 *
 * <p><b>Protocol.</b> One request is outstanding at a time: a waiter asks for the next store only
 * after it has seen the previous one. {@link #request} writes {@code atNanos} (plain), then
 * {@code requested} (volatile), then unparks the device; the device reads {@code requested} before
 * {@code atNanos}, so it sees the time of the request it acts on. An unpark that comes before the
 * device parks leaves a permit, so no request is missed.
 *
 * <p><b>The stamp.</b> {@code storedAt} is a plain field written just before the release store of
 * the word; any waiter that has seen the word (by an acquire load, or through a chain of
 * release/acquire handoffs that starts with one) therefore sees the stamp of that store. The next
 * stamp is written only after the next request, which the waiter makes after reading this one.
 */
final class BenchDevice implements AutoCloseable {
    private final CompletionLine line = CompletionLine.allocate();
    private final Slot slot = Slot.of(0);
    private final Thread thread;
    private final Runnable afterStore;
    private final DeviceTiming timing;
    private volatile long requested;
    private long atNanos;
    private long storedAt;
    private volatile boolean closed;

    /** @param afterStore run on the device thread after each store (the CPU-notify baseline's notify), or null */
    BenchDevice(DeviceTiming timing, Runnable afterStore) {
        this.timing = timing;
        this.afterStore = afterStore;
        this.thread = Thread.ofPlatform().name("gar-bench-device").daemon(true).start(this::run);
    }

    CompletionLine line() { return line; }

    Slot slot() { return slot; }

    Thread thread() { return thread; }

    /** Whether the word has reached {@code seq} (acquire load). */
    boolean reached(long seq) { return MemoryDescriptor.reached(line.word(slot), seq); }

    /** The descriptor of the store of {@code seq}. */
    MemoryDescriptor descriptor(long seq) { return new MemoryDescriptor(line, slot, seq); }

    /** Asks for {@code seq} to be stored at {@code at} (a {@link System#nanoTime()} value). */
    void request(long seq, long at) {
        atNanos = at;
        requested = seq;
        LockSupport.unpark(thread);
    }

    /** When the last store happened; read only after seeing that store (see the class comment). */
    long storedAt() { return storedAt; }

    private void run() {
        long done = 0;
        while (!closed) {
            long seq = requested;
            if (seq == done) {
                LockSupport.park(this);
                continue;
            }
            timing.waitFor(atNanos, this, () -> closed);
            storedAt = System.nanoTime();
            line.store(slot, seq);
            done = seq;
            if (afterStore != null) afterStore.run();
        }
    }

    /** Stops the device thread, then frees the line. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        line.close();
    }

    /**
     * The device's port for the wait on {@code target}: done when the word reached it (this device
     * never fails, so the word is the whole truth).
     */
    record WordPort(MemoryDescriptor d) implements CompletionPort {
        @Override
        public boolean query() { return d.isComplete(); }

        @Override
        public void block() throws InterruptedException {
            while (!d.isComplete()) {
                if (Thread.interrupted()) throw new InterruptedException();
                LockSupport.parkNanos(20_000);
            }
        }

        @Override
        public void arm() {
            // The store is requested by the rig, not by the wait.
        }

        @Override
        public boolean park(long boundNanos) throws InterruptedException {
            long end = System.nanoTime() + boundNanos;
            while (!d.isComplete()) {
                if (System.nanoTime() - end >= 0) return false;
                if (Thread.interrupted()) throw new InterruptedException();
                Thread.onSpinWait();
            }
            return true;
        }
    }
}
