package dev.gpureactor.carrier;

import jdk.internal.misc.CarrierThreadLocal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The pool's adopted virtual threads: those that run on its carriers without being made by its
 * factory. The JDK gives a virtual thread built without a scheduler the scheduler of the virtual
 * thread that builds it, so a plain {@code Thread.ofVirtual()}, {@code
 * Executors.newVirtualThreadPerTaskExecutor()} or a structured task scope's fork inside one of the
 * pool's threads runs here. Such a thread never counts itself live ({@link CarrierPool#liveBody} is the
 * factory's), so without this the pool could retire while it was parked, and its next resume would be
 * refused: a thread stranded for good, unnamed at close.
 *
 * <p><b>How one is found.</b> Each start (the route tells it, {@link VirtualThreads#isStarting}) runs
 * as a {@link Start}: before the thread's first run, the platform thread that runs it records the
 * start in a carrier-thread local, where a factory thread's first act (run on that platform thread,
 * mounted) claims it. A start unclaimed after its first run, whose thread is still alive, is adopted:
 * counted live and named, as a factory thread is. This happens inside the start's admitted task, so
 * the pool cannot retire before the count is up.
 *
 * <p><b>How one leaves.</b> No code of ours runs at its end, so the carrier watch, at each look,
 * {@link #sweep sweeps} the adopted threads for those that ended (the pool then retires within a
 * look of the last one). A factory thread misread as adopted (one that parked before its first act)
 * is counted twice until then, which delays nothing but the retirement, by that look.
 */
final class AdoptedThreads {
    /**
     * The start the current platform thread runs now. Written by that platform thread around a start's
     * first run and read (and claimed) by the virtual thread mounted on it: one OS thread, in program
     * order across the mount, so plain fields suffice.
     */
    private static final CarrierThreadLocal<Start> RUNNING = new CarrierThreadLocal<>();

    private final CarrierPool pool;
    /** Adopted threads that may still live, with their entry in the pool's live set; swept by the watch only. */
    private final ConcurrentHashMap<Thread, LiveThreads.Entry> threads = new ConcurrentHashMap<>();

    AdoptedThreads(CarrierPool pool) { this.pool = pool; }

    /** A start's first run, which learns whether its thread was the factory's. */
    private final class Start implements Runnable {
        private final Runnable task;
        private final Thread thread;
        /** Set by the factory's own first act, on this platform thread (see {@link #RUNNING}). */
        boolean claimed;

        Start(Runnable task, Thread thread) {
            this.task = task;
            this.thread = thread;
        }

        @Override
        public void run() {
            // The thread's first run goes ahead whatever this record costs: a carrier's first record makes
            // its local's entry, and an OutOfMemoryError there dropped the run, the thread never started.
            // Unrecorded, a factory thread is adopted too, counted twice until the watch's sweep.
            boolean recorded = record(this);
            try {
                task.run();
            } finally {
                if (recorded) RUNNING.set(null); // not remove(): the entry stays for the next start, no allocation per start
                if (!claimed && thread.isAlive()) adopt(thread); // inside the admitted task: no retirement yet
            }
        }
    }

    private static boolean record(Start s) {
        try {
            RUNNING.set(s);
            return true;
        } catch (OutOfMemoryError e) {
            return false;
        }
    }

    /**
     * Counts {@code t} live and keeps it for the sweep, trying again after each {@code OutOfMemoryError} as the JDK
     * does: uncounted, it would be stranded at its first resume after the pool retired; counted and not kept, the
     * carriers would never retire. The count goes up first (the entry's link allocates nothing), so the sweep
     * never finds an entry that is not counted.
     */
    private void adopt(Thread t) {
        LiveThreads.Entry e = null;
        while (true) {
            try {
                if (e == null) {
                    LiveThreads.Entry made = new LiveThreads.Entry();
                    pool.counted(t, made);
                    e = made;
                }
                threads.put(t, e);
                return;
            } catch (OutOfMemoryError oom) {
                LockSupport.parkNanos(CarrierPool.OOM_RETRY_NANOS);
            }
        }
    }

    /** {@code task}, the first run of {@code thread}, as a start that adopts the thread unless its factory claims it. */
    Runnable start(Runnable task, Thread thread) { return new Start(task, thread); }

    /**
     * Called by a factory thread as it begins: claims its start, so it is not adopted. Never throws: on a carrier that
     * never ran a start the local's read makes its entry, and a thread whose claim fails for want of memory is adopted
     * as well (counted twice until the sweep), where a throw here would end it before its task.
     */
    static void claim() {
        try {
            Start s = RUNNING.get();
            if (s != null && s.thread == Thread.currentThread()) s.claimed = true;
        } catch (OutOfMemoryError e) {
            // unclaimed: adopted too, see above
        }
    }

    /** {@return whether any adopted thread may still live} */
    boolean any() { return !threads.isEmpty(); }

    /** Takes out each adopted thread that has ended and hands its entry to {@code ended}: the carrier watch's, at each look. */
    void sweep(Consumer<LiveThreads.Entry> ended) {
        threads.forEach((t, e) -> {
            if (!t.isAlive() && threads.remove(t, e)) ended.accept(e);
        });
    }
}
