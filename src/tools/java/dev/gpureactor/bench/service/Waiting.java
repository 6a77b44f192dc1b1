package dev.gpureactor.bench.service;

import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.loom.GpuReactor;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A mode, opened for a whole run (as a service runs for hours, its reactor keeps what it learned
 * across levels and rounds): the server's executor and how a handler waits for its job. Each
 * {@link #await} returns the payload it read after the wait; the handler stamps its wake right after.
 */
sealed interface Waiting extends AutoCloseable {
    ExecutorService executor();

    /** Waits for {@code job}'s store and returns its payload. */
    long await(Job job) throws Exception;

    /** Waits registered and not settled (0 when quiet). */
    long registrations();

    /** A cell of this mode begins (its server is about to start). */
    default void cellStarts() {}

    /** A cell of this mode ended: every request was answered. */
    default void cellEnds() {}

    @Override
    void close();

    static Waiting open(Mode mode, Mode.BuilderHook hook) {
        return switch (mode) {
            case Mode.Reactor r -> new OnReactor(r.builder(hook).build());
            case Mode.Watcher w -> new OnWatcher(w.interval().toNanos());
            case Mode.SleepPoll s -> new OnSleep(Executors.newVirtualThreadPerTaskExecutor());
        };
    }

    /** The library: its executor, and {@code reactor.await(...).join()}. */
    record OnReactor(GpuReactor reactor, ExecutorService executor) implements Waiting {
        OnReactor(GpuReactor reactor) { this(reactor, reactor.newExecutor()); }

        @Override
        public long await(Job job) {
            return reactor.await(job.signal.descriptor(), job.signal.port(), () -> job.payload).join();
        }

        @Override
        public long registrations() { return reactor.registrations(); }

        @Override
        public void close() {
            executor.close();
            reactor.close();
        }
    }

    /**
     * The JDK executor and the hand-written watcher thread. The watcher runs only during this
     * mode's cells (it ticks whether or not anything is pending, and would otherwise charge its
     * ticks to the other modes' windows); it has nothing to learn, so a fresh one per cell is fair.
     */
    final class OnWatcher implements Waiting {
        private final long intervalNanos;
        private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        /** Written by the harness before the cell's server starts, read by its handlers (server start orders them). */
        private volatile ScanWatcher watcher;

        OnWatcher(long intervalNanos) { this.intervalNanos = intervalNanos; }

        @Override
        public ExecutorService executor() { return executor; }

        @Override
        public void cellStarts() { watcher = new ScanWatcher(intervalNanos); }

        @Override
        public void cellEnds() {
            ScanWatcher w = watcher;
            if (w != null) w.close();
        }

        @Override
        public long await(Job job) {
            watcher.watch(job.signal.descriptor()).join();
            return job.payload;
        }

        @Override
        public long registrations() {
            ScanWatcher w = watcher;
            return w == null ? 0 : w.registrations();
        }

        @Override
        public void close() {
            executor.close();
            cellEnds();
        }
    }

    /** The JDK executor, handlers polling the word every millisecond. */
    record OnSleep(ExecutorService executor) implements Waiting {
        @Override
        public long await(Job job) throws InterruptedException {
            MemoryDescriptor d = job.signal.descriptor();
            while (!d.isComplete()) Thread.sleep(1); // acquire load: the payload is visible once it says complete
            return job.payload;
        }

        @Override
        public long registrations() { return 0; }

        @Override
        public void close() { executor.close(); }
    }
}
