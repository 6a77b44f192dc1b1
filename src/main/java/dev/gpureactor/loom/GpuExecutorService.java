package dev.gpureactor.loom;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A drop-in for {@link java.util.concurrent.Executors#newVirtualThreadPerTaskExecutor()}: one new
 * virtual thread per task, started by the reactor's thread factory (so on its carrier pool), with
 * the same lifecycle: {@link #shutdown()} stops intake, {@link #shutdownNow()} also interrupts
 * every running task, {@link #awaitTermination} waits for the last task thread to end, and
 * {@link #close()} shuts down and waits (from one of its own tasks it only shuts down).
 *
 * <p>Termination is counted over started threads: a thread removes itself when its task ends, and
 * the last one out after shutdown opens the termination latch. Submission and shutdown race only
 * through the {@code shutdown} flag, re-checked after the thread is registered, so a task either
 * runs or is rejected, and termination never precedes a task that was accepted.
 */
public final class GpuExecutorService extends AbstractExecutorService {
    private final ThreadFactory factory;
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile boolean shutdown;

    GpuExecutorService(ThreadFactory factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (shutdown) throw rejected();
        Thread t = factory.newThread(() -> {
            try {
                task.run();
            } finally {
                threads.remove(Thread.currentThread());
                tryTerminate();
            }
        });
        threads.add(t);
        if (shutdown) {
            threads.remove(t);
            tryTerminate();
            throw rejected();
        }
        try {
            t.start();
        } catch (RuntimeException | Error e) {
            // The scheduler refused the thread (the reactor's carriers were closed): it will never
            // run its finally block, so it must not hold termination back.
            threads.remove(t);
            tryTerminate();
            throw e;
        }
    }

    private static RejectedExecutionException rejected() {
        return new RejectedExecutionException(new ReactorException(ErrorCode.ShutDown, "executor").getMessage());
    }

    private void tryTerminate() {
        if (shutdown && threads.isEmpty()) terminated.countDown();
    }

    @Override
    public void shutdown() {
        shutdown = true;
        tryTerminate();
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        threads.forEach(Thread::interrupt);
        return new ArrayList<>();
    }

    /**
     * Shuts down and waits for every task to end, as {@link java.util.concurrent.ExecutorService#close()};
     * called from one of this executor's own tasks it only shuts down, since that task cannot wait
     * for its own end (the executor terminates once the caller's task and the others end).
     */
    @Override
    public void close() {
        if (threads.contains(Thread.currentThread())) {
            shutdown();
            return;
        }
        super.close();
    }

    @Override
    public boolean isShutdown() { return shutdown; }

    @Override
    public boolean isTerminated() { return terminated.getCount() == 0; }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }
}
