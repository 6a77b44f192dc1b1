package dev.gpureactor.bench.service;

import dev.gpureactor.core.MemoryDescriptor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The baseline a user writes by hand: one platform thread that scans every pending word every
 * {@code intervalNanos} and completes a {@link CompletableFuture} for each word reached; handlers
 * on the JDK's virtual-thread executor {@code join} them.
 *
 * <p>Competent, not tuned down: a word already reached completes at once without a registration;
 * new registrations go through a lock-free queue that only the watcher drains; the watcher owns
 * its pending list, so a scan takes no lock and removes reached entries in place. It ticks every
 * interval whether or not anything is pending, so there is no sleep/wake handshake to get wrong
 * (and an idle tick costs a timer wake-up, nothing more).
 */
final class ScanWatcher implements AutoCloseable {
    private record Pending(MemoryDescriptor descriptor, CompletableFuture<Void> done) {}

    private final ConcurrentLinkedQueue<Pending> incoming = new ConcurrentLinkedQueue<>();
    private final List<Pending> pending = new ArrayList<>(); // the watcher thread's alone
    private final AtomicLong registrations = new AtomicLong();
    private final long intervalNanos;
    private final Thread thread;
    private volatile boolean closed;

    static final String THREAD_NAME = "gar-service-watcher";

    ScanWatcher(long intervalNanos) {
        this.intervalNanos = intervalNanos;
        this.thread = Thread.ofPlatform().daemon(true).name(THREAD_NAME).start(this::loop);
    }

    /** A future completed once {@code d} is reached. */
    CompletableFuture<Void> watch(MemoryDescriptor d) {
        if (d.isComplete()) return CompletableFuture.completedFuture(null);
        Pending p = new Pending(d, new CompletableFuture<>());
        registrations.incrementAndGet();
        incoming.add(p);
        return p.done;
    }

    /** Words registered and not yet seen reached. */
    long registrations() { return registrations.get(); }

    private void loop() {
        while (!closed) {
            for (Pending p; (p = incoming.poll()) != null; ) pending.add(p);
            for (int i = pending.size() - 1; i >= 0; i--) {
                Pending p = pending.get(i);
                if (p.descriptor.isComplete()) { // acquire: the payload written before the store is visible to the joiner
                    Pending last = pending.removeLast();
                    if (i < pending.size()) pending.set(i, last);
                    registrations.decrementAndGet();
                    p.done.complete(null);
                }
            }
            LockSupport.parkNanos(this, intervalNanos);
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
