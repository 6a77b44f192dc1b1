package dev.gpureactor.bench.service;

import java.lang.reflect.Constructor;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where the load generator's virtual threads run: a {@link ForkJoinPool} of their own (async mode,
 * as the JDK's scheduler), with carriers named {@code gar-load-N}, so that the clients' CPU is
 * measured apart from the server's, whichever scheduler the server's mode uses. It takes the same
 * route to the JDK's scheduler hook as the library's carrier pool (the package-private
 * {@code VirtualThreadBuilder(Executor)}, open with {@code --add-opens java.base/java.lang}); where
 * the hook is closed the clients run on the JDK's default scheduler and {@link #separate()} says so.
 */
final class LoadThreads implements AutoCloseable {
    static final String PREFIX = "gar-load-";
    /** How long an idle load carrier lives: the pool is never shut down, its carriers retire (see {@link #close}). */
    private static final long IDLE_SECONDS = 2;

    private static final String WORKER = "-worker-", DELAY_SCHEDULER = "-delayScheduler";

    private final ForkJoinPool pool;
    private final Thread.Builder.OfVirtual builder;
    private final String whyShared;
    /**
     * The pool's own name ("ForkJoinPool-N"), read from the first carrier's default name: the pool's
     * timer thread is named after it ("ForkJoinPool-N-delayScheduler"), and it runs the clients' socket
     * timeouts (a virtual thread's timed park on a {@link ForkJoinPool} scheduler is that pool's
     * {@code schedule}). Set by the first carrier before any client runs; volatile: read by the reporter.
     */
    private final AtomicReference<String> poolName;

    private LoadThreads(ForkJoinPool pool, Thread.Builder.OfVirtual builder, String whyShared, AtomicReference<String> poolName) {
        this.pool = pool;
        this.builder = builder;
        this.whyShared = whyShared;
        this.poolName = poolName;
    }

    static LoadThreads open(int carriers) {
        AtomicReference<String> poolName = new AtomicReference<>();
        ForkJoinPool pool = new ForkJoinPool(carriers, p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            String name = t.getName();
            int worker = name.lastIndexOf(WORKER);
            if (worker > 0) poolName.compareAndSet(null, name.substring(0, worker));
            t.setName(PREFIX + t.getPoolIndex());
            return t;
        }, null, true, 0, carriers + 256, 1, p -> true, IDLE_SECONDS, TimeUnit.SECONDS);
        try {
            Constructor<?> c = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder").getDeclaredConstructor(Executor.class);
            c.setAccessible(true);
            Thread.Builder.OfVirtual builder = (Thread.Builder.OfVirtual) c.newInstance(pool);
            startPollersOn(builder);
            return new LoadThreads(pool, builder, null, poolName);
        } catch (ReflectiveOperationException | RuntimeException e) {
            pool.shutdown(); // no virtual thread was ever scheduled on it
            return new LoadThreads(null, Thread.ofVirtual(), "the JDK's scheduler hook is closed (" + e.getClass().getSimpleName()
                    + "): the clients share the JDK's default scheduler, and their CPU is counted with the server's", poolName);
        }
    }

    /**
     * Starts the JDK's I/O pollers on a client thread, so that they run on this pool: they serve the clients'
     * sockets (the servers poll theirs with selectors of their own), and their CPU is the load's. The JDK starts
     * them at the first socket read a virtual thread parks in, as virtual threads taking that thread's scheduler;
     * the library starts them on the JDK's scheduler before its first carrier pool, so this runs before any
     * reactor is built. Where something started them before, this changes nothing, and their CPU counts as the
     * JDK scheduler's (the server's).
     */
    private static void startPollersOn(Thread.Builder.OfVirtual builder) {
        Thread t = builder.unstarted(() -> {
            try {
                Class.forName("sun.nio.ch.Poller", true, null);
            } catch (ReflectiveOperationException | LinkageError e) {
                // another JDK's layout: the pollers start wherever the JDK starts them
            }
        });
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether a thread (by its group name: the name less a trailing number) belongs to the load
     * generator: its carriers, or its pool's timer thread, which serves the clients' socket timeouts
     * (without it here, its CPU would count as the JDK scheduler's, the server's).
     */
    boolean owns(String threadGroup) {
        if (threadGroup.startsWith(PREFIX)) return true;
        String name = poolName.get();
        return name != null && OsThreads.mayBe(threadGroup, name + DELAY_SCHEDULER); // the kernel's name may be cut short
    }

    /** Starts {@code task} on a new virtual thread of the load generator (called by one thread: builders are not thread-safe). */
    Thread start(Runnable task) {
        Thread t = builder.unstarted(task);
        t.start();
        return t;
    }

    /** Whether the clients have carriers of their own, or why not. */
    Optional<String> separate() { return Optional.ofNullable(whyShared); }

    /**
     * Lets the carriers retire once idle, without shutting the pool down: the JDK's I/O poller may
     * still unpark a virtual thread of this pool after its last client ended (seen here after every
     * client thread had been joined), and a shut-down pool rejects that continuation, which kills
     * the process-wide poller thread and hangs every later socket read of every virtual thread.
     */
    @Override
    public void close() {
        // Nothing to stop: the carriers leave after IDLE_SECONDS without work.
    }
}
