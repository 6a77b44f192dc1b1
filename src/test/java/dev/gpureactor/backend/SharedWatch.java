package dev.gpureactor.backend;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.MemoryDescriptor;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link WordPark} for many waiters on one line: one watcher thread polls the line and wakes the
 * waiters (asleep on a monitor) when a word changes: the loom layer's parker in miniature. With
 * it, a thousand waiting threads cost one polling thread, not a thousand. Shows that the park is
 * pluggable; a waiter still returns {@code false} at its bound, as the contract allows.
 */
public final class SharedWatch implements WordPark, AutoCloseable {
    private final Object monitor = new Object();
    private final Thread watcher;
    private volatile boolean closed;

    public SharedWatch(CompletionLine line) {
        watcher = Thread.ofPlatform().daemon().name("shared-watch-" + line.name()).start(() -> {
            long[] last = line.snapshot();
            while (!closed && !line.isClosed()) {
                long[] now;
                try {
                    now = line.snapshot();
                } catch (RuntimeException closedUnderUs) {
                    break;
                }
                if (!Arrays.equals(now, last)) {
                    last = now;
                    synchronized (monitor) {
                        monitor.notifyAll();
                    }
                }
                LockSupport.parkNanos(100_000);
            }
            synchronized (monitor) {
                monitor.notifyAll();
            }
        });
    }

    @Override
    public boolean park(MemoryDescriptor word, long boundNanos) throws InterruptedException {
        synchronized (monitor) {
            if (word.isComplete()) return true;
            monitor.wait(Math.max(1, boundNanos / 1_000_000));
        }
        return word.isComplete();
    }

    @Override
    public void close() {
        closed = true;
        try {
            watcher.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
