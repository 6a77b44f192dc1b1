package dev.gpureactor.loom;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * A drop-in for {@link java.util.concurrent.Executors#newVirtualThreadPerTaskExecutor()}: one new
 * virtual thread per task, started by the reactor's thread factory (so on its carrier pool), with
 * the JDK executor's lifecycle and its {@code invokeAll}/{@code invokeAny}:
 * {@link #shutdown()} stops intake, {@link #shutdownNow()} also interrupts every running task,
 * {@link #awaitTermination} waits for the last task thread to end, {@link #close()} shuts down and
 * waits (interrupted, it interrupts the tasks, as the JDK's). Closing the reactor shuts it down.
 *
 * <p>Implementation overview. {@code state} goes RUNNING → SHUTDOWN → TERMINATED (CAS), as the
 * JDK's {@code ThreadPerTaskExecutor}. A submission registers its thread in {@code threads} and then
 * re-reads {@code state}; shutdown writes {@code state} and then reads {@code threads} (both
 * volatile/concurrent, so one order): either the submitter sees the shutdown and withdraws (the
 * task is rejected, never run), or the terminator sees the thread and waits for it. A thread
 * removes itself when its task ends; the last one out after shutdown terminates.
 *
 * <p>Differences from the JDK's, both deliberate: {@code close()} from one of its own tasks only
 * shuts down (the JDK's waits for itself for ever), and rejections carry the coded
 * {@link ErrorCode#Rejected} message ("executor is shut down: it accepts no new task").
 */
public final class GpuExecutorService extends AbstractExecutorService {
    private static final int RUNNING = 0, SHUTDOWN = 1, TERMINATED = 2;

    private final ThreadFactory factory;
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Consumer<GpuExecutorService> onTerminated;
    /** RUNNING, SHUTDOWN, TERMINATED; only grows. Volatile via the atomic: see the overview for the order. */
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    /** Whether a submission re-reads the state after registering its thread: false only in jcstress's negative control. */
    private final boolean recheck;

    GpuExecutorService(ThreadFactory factory) {
        this(factory, e -> { });
    }

    GpuExecutorService(ThreadFactory factory, Consumer<GpuExecutorService> onTerminated) {
        this(factory, onTerminated, true);
    }

    /** {@code recheck = false} removes the re-read of the state after registration: the negative control. */
    GpuExecutorService(ThreadFactory factory, Consumer<GpuExecutorService> onTerminated, boolean recheck) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.onTerminated = Objects.requireNonNull(onTerminated, "onTerminated");
        this.recheck = recheck;
    }

    @Override
    public void execute(Runnable task) {
        start(Objects.requireNonNull(task, "task"));
    }

    /** Starts {@code task} on a new thread registered in {@code threads}; coded rejection when shut down. */
    private Thread start(Runnable task) {
        if (state.get() >= SHUTDOWN) throw rejected();
        Thread t = factory.newThread(() -> {
            try {
                task.run();
            } finally {
                threads.remove(Thread.currentThread());
                tryTerminate();
            }
        });
        if (t == null) throw rejected();
        threads.add(t);
        boolean started = false;
        try {
            if (recheck && state.get() >= SHUTDOWN) throw rejected(); // shut down after our first check: withdraw
            t.start();
            started = true;
        } finally {
            // The scheduler refused it, or shutdown came first: it never runs its finally block, so
            // it must not hold termination back.
            if (!started) {
                threads.remove(t);
                tryTerminate();
            }
        }
        return t;
    }

    private static RejectedExecutionException rejected() {
        return ReactorException.rejection("executor", "task");
    }

    private void tryTerminate() {
        if (state.get() >= SHUTDOWN && threads.isEmpty() && state.compareAndSet(SHUTDOWN, TERMINATED)) {
            terminated.countDown();
            onTerminated.accept(this);
        }
    }

    @Override
    public void shutdown() {
        state.compareAndSet(RUNNING, SHUTDOWN);
        // Also when another shutdown won the CAS: that one may not have looked yet, and a caller that
        // finds nothing running must find the executor terminated once this returns (Lincheck saw
        // shutdown ∥ shutdownNow, then isTerminated() false with nothing running). Idempotent: a CAS.
        tryTerminate();
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        threads.forEach(Thread::interrupt);
        return List.of();
    }

    /**
     * Shuts down and waits for every task to end, as {@link java.util.concurrent.ExecutorService#close()}
     * (interrupted, it interrupts the tasks and keeps waiting); from one of this executor's own
     * tasks it only shuts down, since that task cannot wait for its own end.
     */
    @Override
    public void close() {
        if (threads.contains(Thread.currentThread())) {
            shutdown();
            return;
        }
        shutdown();
        boolean interrupted = false;
        while (!isTerminated()) {
            try {
                awaitTermination(1, TimeUnit.DAYS);
            } catch (InterruptedException e) {
                if (!interrupted) shutdownNow();
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    @Override
    public boolean isShutdown() { return state.get() >= SHUTDOWN; }

    @Override
    public boolean isTerminated() { return state.get() == TERMINATED; }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        return isTerminated() || terminated.await(timeout, unit);
    }

    // ---- invokeAll / invokeAny as the JDK's thread-per-task executor -----------------------------

    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return invokeAll(tasks, false, 0);
    }

    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        return invokeAll(tasks, true, unit.toNanos(timeout));
    }

    /** Submits every task, waits for each in turn (until the deadline), cancels what is left. */
    private <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, boolean timed, long nanos)
            throws InterruptedException {
        Objects.requireNonNull(tasks, "tasks");
        long deadline = System.nanoTime() + nanos;
        List<Future<T>> futures = new ArrayList<>(tasks.size());
        int j = 0;
        try {
            for (Callable<T> t : tasks) futures.add(submit(t));
            for (int size = futures.size(); j < size; j++) {
                Future<T> f = futures.get(j);
                if (f.isDone()) continue;
                try {
                    if (timed) f.get(deadline - System.nanoTime(), NANOSECONDS); else f.get();
                } catch (TimeoutException e) {
                    break;
                } catch (ExecutionException | CancellationException ignored) {
                    // its outcome is in its future
                }
            }
            return futures;
        } finally {
            for (int size = futures.size(); j < size; j++) futures.get(j).cancel(true);
        }
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        try {
            return invokeAny(tasks, false, 0);
        } catch (TimeoutException e) {
            throw new AssertionError("untimed invokeAny timed out", e);
        }
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(unit, "unit");
        return invokeAny(tasks, true, unit.toNanos(timeout));
    }

    /**
     * Starts every task on its own thread, then, the caller's interrupt checked first (as the JDK's:
     * an interrupt already set throws even when a task already finished), parks until one succeeds,
     * all fail, or the deadline passes; interrupts the others on the way out.
     */
    private <T> T invokeAny(Collection<? extends Callable<T>> tasks, boolean timed, long nanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(tasks, "tasks");
        int size = tasks.size();
        if (size == 0) throw new IllegalArgumentException("'tasks' is empty");
        long start = System.nanoTime();
        AnyResult<T> any = new AnyResult<>(Thread.currentThread());
        List<Thread> started = new ArrayList<>(size);
        try {
            for (Callable<T> task : tasks) {
                Objects.requireNonNull(task, "task");
                started.add(start(() -> {
                    try {
                        any.succeed(task.call());
                    } catch (Throwable e) {
                        any.fail(e);
                    }
                }));
            }
            if (started.isEmpty()) throw new IllegalArgumentException("'tasks' is empty");
            if (Thread.interrupted()) throw new InterruptedException();
            while (!any.hasResult() && any.failures() < started.size()) {
                if (timed) {
                    long left = nanos - (System.nanoTime() - start);
                    if (left <= 0) throw new TimeoutException();
                    LockSupport.parkNanos(left);
                } else {
                    LockSupport.park();
                }
                if (Thread.interrupted()) throw new InterruptedException();
            }
            if (any.hasResult()) return any.result();
            throw new ExecutionException(any.firstFailure());
        } finally {
            started.forEach(Thread::interrupt);
        }
    }

    /** The first result (or the failures) of an {@code invokeAny}; wakes its owner on each outcome. */
    private static final class AnyResult<T> {
        private static final Object NULL = new Object();
        private final Thread owner;
        /** The first success, NULL for a null one; set once by CAS, read by the owner after its unpark. */
        private final AtomicReference<Object> result = new AtomicReference<>();
        private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        private final AtomicInteger failures = new AtomicInteger();

        AnyResult(Thread owner) { this.owner = owner; }

        void succeed(T value) {
            if (result.compareAndSet(null, value == null ? NULL : value)) LockSupport.unpark(owner);
        }

        void fail(Throwable e) {
            firstFailure.compareAndSet(null, e); // before the count: the owner reads it after seeing the count
            failures.incrementAndGet();
            LockSupport.unpark(owner);
        }

        boolean hasResult() { return result.get() != null; }

        @SuppressWarnings("unchecked")
        T result() {
            Object r = result.get();
            return r == NULL ? null : (T) r;
        }

        int failures() { return failures.get(); }

        Throwable firstFailure() { return firstFailure.get(); }
    }
}
