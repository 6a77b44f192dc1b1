package dev.gpureactor.bench.service;

import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.loom.GpuReactor;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A mode, opened for one cell: the server's executor and how a handler waits for its job. Each
 * returns the payload it read after the wait; the handler stamps its wake right after.
 */
sealed interface Waiting extends AutoCloseable {
    ExecutorService executor();

    /** Waits for {@code job}'s store and returns its payload. */
    long await(Job job) throws Exception;

    /** Waits registered and not settled (0 when quiet). */
    long registrations();

    @Override
    void close();

    static Waiting open(Mode mode, Mode.BuilderHook hook) {
        return switch (mode) {
            case Mode.Reactor r -> new OnReactor(r.builder(hook).build());
            case Mode.Watcher w -> new OnWatcher(new ScanWatcher(w.interval().toNanos()), Executors.newVirtualThreadPerTaskExecutor());
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

    /** The JDK executor and the hand-written watcher thread. */
    record OnWatcher(ScanWatcher watcher, ExecutorService executor) implements Waiting {
        @Override
        public long await(Job job) {
            watcher.watch(job.signal.descriptor()).join();
            return job.payload;
        }

        @Override
        public long registrations() { return watcher.registrations(); }

        @Override
        public void close() {
            executor.close();
            watcher.close();
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
