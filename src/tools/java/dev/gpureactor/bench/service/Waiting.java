package dev.gpureactor.bench.service;

import dev.gpureactor.loom.RunStats;
import java.util.Optional;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.loom.GpuReactor;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A mode, opened for a whole run (as a service runs for hours, its reactor keeps what it learned
 * across levels and rounds): the server's executor and how a handler waits for its job. Each
 * {@link #await} returns the payload it read after the wait; the handler stamps its wake right after.
 */
sealed interface Waiting extends AutoCloseable {
    ExecutorService executor();

    /** Waits for {@code job}'s store and returns its payload. */
    long await(Job job) throws Exception;

    /**
     * Begins waiting for {@code job}'s store in this mode's way and hands the wait over as a
     * {@link Future} of the payload, for a request with a {@link Fate}: the caller times it out,
     * cancels it or is interrupted in it, and each has the outcome a {@code FutureTask} would give.
     */
    Future<Long> begin(Job job);

    /** Whether {@link #begin}'s futures answer {@code true} only to the cancel that cancelled them, as {@code FutureTask}'s do. */
    default boolean cancelAnswersOnce() { return true; }

    /** Waits registered and not settled (0 when quiet). */
    long registrations();

    /** The reactor's statistics now, for its parkers' CPU by phase; empty for a mode without a reactor. */
    default Optional<RunStats> stats() { return Optional.empty(); }

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
        public Future<Long> begin(Job job) {
            return reactor.await(job.signal.descriptor(), job.signal.port(), () -> job.payload);
        }

        @Override
        public long registrations() { return reactor.registrations(); }

        @Override
        public Optional<RunStats> stats() { return Optional.of(reactor.stats()); }

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
        public Future<Long> begin(Job job) { return new Watched(watcher.watch(job.signal.descriptor()), job); }

        /** A {@code CompletableFuture}'s cancel answers whether it is cancelled, a second call too. */
        @Override
        public boolean cancelAnswersOnce() { return false; }

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
        public Future<Long> begin(Job job) { return new Polled(job); }

        @Override
        public long registrations() { return 0; }

        @Override
        public void close() { executor.close(); }
    }

    /**
     * The watcher's wait as a user hands it on: its {@code CompletableFuture}, read as the payload.
     * A timed {@code get} is a timed wait on the watcher's signal; a cancel cancels that future
     * (the watcher's later {@code complete} then does nothing and drops the entry).
     */
    record Watched(CompletableFuture<Void> signal, Job job) implements Future<Long> {
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) { return signal.cancel(mayInterruptIfRunning); }

        @Override
        public boolean isCancelled() { return signal.isCancelled(); }

        @Override
        public boolean isDone() { return signal.isDone(); }

        @Override
        public Long get() throws InterruptedException, ExecutionException {
            signal.get();
            return job.payload;
        }

        @Override
        public Long get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            signal.get(timeout, unit);
            return job.payload;
        }
    }

    /**
     * Sleep polling's wait as a future: polls the word every millisecond (a timed wait sleeps no
     * longer than its limit); a cancel wins only while the word is not yet seen reached.
     */
    final class Polled implements Future<Long> {
        private static final int PENDING = 0, DONE = 1, CANCELLED = 2;
        private final Job job;
        private final AtomicInteger state = new AtomicInteger(PENDING);

        Polled(Job job) { this.job = job; }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) { return state.get() == PENDING && !reached() && state.compareAndSet(PENDING, CANCELLED); }

        @Override
        public boolean isCancelled() { return state.get() == CANCELLED; }

        @Override
        public boolean isDone() { return state.get() != PENDING || reached(); }

        @Override
        public Long get() throws InterruptedException {
            while (!reached()) Thread.sleep(1);
            return job.payload;
        }

        @Override
        public Long get(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
            long end = System.nanoTime() + unit.toNanos(timeout);
            for (long left; !reached(); ) {
                if ((left = end - System.nanoTime()) <= 0) throw new TimeoutException();
                Thread.sleep(java.time.Duration.ofNanos(Math.min(left, 1_000_000)));
            }
            return job.payload;
        }

        /** Whether the wait completed: the word seen reached (an acquire load) settles it DONE unless a cancel came first. */
        private boolean reached() {
            int s = state.get();
            if (s == CANCELLED) throw new CancellationException("cancelled");
            if (s == DONE) return true;
            if (!job.signal.descriptor().isComplete()) return false;
            state.compareAndSet(PENDING, DONE);
            return reached();
        }
    }
}
