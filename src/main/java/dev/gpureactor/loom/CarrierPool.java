package dev.gpureactor.loom;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * The platform carrier threads that run this library's virtual threads: the scheduler handed to
 * the JDK's virtual-thread builder.
 *
 * <p>A woken virtual thread arrives as a task through {@link #execute}, called on whatever thread
 * unparked it (a parker, another virtual thread). A carrier takes tasks from one shared FIFO queue;
 * when it finds none it spins for {@code idleSpinNanos} (a sleeping carrier costs 10–30 µs to wake
 * on these machines, a spinning one well under one), then sleeps in {@link IdleCarriers}, whose
 * protocol guarantees that no submitted task stays unrun while every carrier sleeps.
 *
 * <p>{@link #execute} never blocks (the JDK calls it with the submitting virtual thread pinned). A
 * task submitted after {@link #close()} is rejected with a coded {@link RejectedExecutionException}.
 * Carriers are daemon threads with the system class loader and no inheritable thread locals, as the
 * JDK's own carriers.
 */
public final class CarrierPool implements Executor, AutoCloseable {
    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final IdleCarriers idle = new IdleCarriers();
    private final List<Thread> carriers = new ArrayList<>();
    private final long idleSpinNanos;
    private final LongAdder tasksRun = new LongAdder();
    private final LongAdder idleNanos = new LongAdder();
    private final LongAdder busyNanos = new LongAdder();
    private volatile boolean closed;
    /** What an idle carrier re-checks after announcing itself asleep. */
    private final BooleanSupplier workOrClosed = () -> !queue.isEmpty() || closed;

    /**
     * @param size          carrier threads (the parkers are platform threads too: count them against the cores)
     * @param idleSpinNanos how long an idle carrier spins before it sleeps in the OS; 0 sleeps at once
     */
    public CarrierPool(int size, long idleSpinNanos) {
        this(size, 1, idleSpinNanos);
    }

    private CarrierPool(int size, int minSize, long idleSpinNanos) {
        if (size < minSize || size > 4096) throw new ReactorException(ErrorCode.InvalidArgument, "carriers", size, minSize + "..4096");
        if (idleSpinNanos < 0) throw new ReactorException(ErrorCode.InvalidArgument, "idleSpinNanos", idleSpinNanos, ">= 0");
        this.idleSpinNanos = idleSpinNanos;
        for (int i = 0; i < size; i++) {
            Thread t = Thread.ofPlatform().name("gar-carrier-" + i).daemon(true).inheritInheritableThreadLocals(false)
                    .unstarted(this::carry);
            t.setContextClassLoader(ClassLoader.getSystemClassLoader());
            carriers.add(t);
        }
        carriers.forEach(Thread::start);
    }

    /** A pool with no carrier threads: jcstress plays the carrier with {@link #announceIdle}. */
    static CarrierPool withoutCarriers() {
        return new CarrierPool(0, 0, 0);
    }

    /**
     * The scheduler's entry: runs a virtual thread's continuation on a carrier, or, when a parker's
     * turn unparked it, keeps it for that parker to run ({@link ParkerThread}). Only the JDK calls
     * this with continuations; code with tasks of its own uses {@link #callbacks()}.
     */
    @Override
    public void execute(Runnable task) {
        if (task == null) throw new NullPointerException("task");
        if (Thread.currentThread() instanceof ParkerThread p && !closed && p.capture(this, task)) return;
        enqueue(task);
    }

    /**
     * An executor onto these carriers that never hands its task to a parker: for callbacks
     * (completion stages, {@code onComplete}), which must never run on a parker thread.
     */
    public Executor callbacks() { return callbacks; }

    private final Executor callbacks = task -> enqueue(Objects.requireNonNull(task, "task"));

    private void enqueue(Runnable task) {
        if (closed) {
            throw new RejectedExecutionException(new ReactorException(ErrorCode.ShutDown, "carrier pool").getMessage());
        }
        queue.offer(task);
        idle.signal();
    }

    private void carry() {
        while (true) {
            Runnable r = queue.poll();
            if (r != null) {
                long t0 = System.nanoTime();
                try {
                    r.run();
                } catch (Throwable t) {
                    Thread.currentThread().getUncaughtExceptionHandler().uncaughtException(Thread.currentThread(), t);
                }
                busyNanos.add(System.nanoTime() - t0);
                tasksRun.increment();
                continue;
            }
            if (closed) return;
            long t0 = System.nanoTime();
            long spinUntil = t0 + idleSpinNanos;
            while ((r = queue.peek()) == null && System.nanoTime() - spinUntil < 0) Thread.onSpinWait();
            if (r == null) idle.sleep(workOrClosed, Long.MAX_VALUE);
            idleNanos.add(System.nanoTime() - t0);
        }
    }

    /** A carrier's idle handshake up to the park, as {@code carry} runs it: whether {@code me} may park now. */
    boolean announceIdle(Thread me) { return idle.announce(me, workOrClosed); }

    /**
     * Whether woken virtual threads wait for a carrier while none is idle: a parker's early wake
     * then buys nothing (cheap: two reads, racy by design, a hint only).
     */
    boolean backlogged() { return !queue.isEmpty() && idle.sleeping() == 0; }

    /** Carriers listed asleep (a signal pops one). */
    int sleepingCarriers() { return idle.sleeping(); }

    public int size() { return carriers.size(); }

    public long idleSpinNanos() { return idleSpinNanos; }

    long tasksRun() { return tasksRun.sum(); }

    long idleNanos() { return idleNanos.sum(); }

    long busyNanos() { return busyNanos.sum(); }

    /** Whether {@code t} is one of this pool's carriers. */
    public boolean isCarrier(Thread t) { return carriers.contains(t); }

    /** Stops taking tasks; carriers finish what is queued and exit. */
    @Override
    public void close() {
        closed = true;
        idle.signalAll();
        for (Thread t : carriers) {
            if (t == Thread.currentThread()) continue;
            try {
                t.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
