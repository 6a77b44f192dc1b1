package dev.gpureactor.carrier;

import java.util.Arrays;

/**
 * What a carrier captures of the virtual threads its own work wakes, so that they run on it and not
 * through a push that signals an idle carrier. Two kinds of work capture:
 * <ul>
 *   <li>its between-tasks work (a parker's turn lent to it, {@link #look}): the first thread woken is
 *       kept and runs next on this carrier; the others are pushed as usual;</li>
 *   <li>a part of a parker's large scan ({@link #runBatched}): every thread woken is batched and
 *       resumed together once the part is over, from this carrier's own queue (one admission, one
 *       push; an idle carrier steals from it).</li>
 * </ul>
 * Only the carrier's own thread touches it.
 */
final class CarrierCapture {
    /** The pool whose tasks are captured now; null when not capturing. */
    private CarrierPool capturing;
    /** The captured task of a look, or null. */
    private Runnable kept;
    /** Whether the capture batches every task (a part) rather than keeping the first (a look). */
    private boolean batching;
    /** A part's captured tasks, {@link #batched} of them; grown to the largest part seen. */
    private Runnable[] batch = new Runnable[16];
    private int batched;

    /**
     * Runs {@code look} (the pool's between-tasks work) capturing for {@code pool}; returns the first
     * task it woke, for this carrier to run next, or null. What {@code look} throws goes to the
     * carrier's handler, never into the pool.
     */
    Runnable look(CarrierPool pool, Runnable look) {
        capturing = pool;
        try {
            look.run();
        } catch (Throwable t) {
            Uncaught.report(Thread.currentThread(), t);
        }
        return closeCapture();
    }

    /**
     * {@code part} as a task of {@code pool}: run on one of its carriers, it runs through that carrier's
     * {@link #runBatched}; run on any other thread (a test playing the carriers), it runs as it is.
     */
    static Runnable batched(CarrierPool pool, Runnable part) {
        return () -> {
            if (Thread.currentThread() instanceof ForkJoinCarriers.Carrier c) c.between.runBatched(pool, part);
            else part.run();
        };
    }

    /**
     * Runs {@code part} capturing every task it gives {@code pool} on this carrier, then resumes them
     * together ({@link CarrierPool#resumeBatch}), whatever the part threw: a woken thread is never
     * dropped. The part's own failure is thrown after.
     */
    void runBatched(CarrierPool pool, Runnable part) {
        capturing = pool;
        batching = true;
        try {
            part.run();
        } finally {
            capturing = null;
            batching = false;
            int n = batched;
            batched = 0;
            if (n > 0) pool.resumeBatch(batch, n);
        }
    }

    /**
     * Captures {@code task} if capturing for {@code pool}: batched during a part; during a look kept
     * if nothing is kept yet. Otherwise (or with no memory to grow the batch) the pool pushes it as usual.
     */
    boolean capture(CarrierPool pool, Runnable task) {
        if (pool != capturing) return false;
        if (batching) {
            if (batched == batch.length) {
                try {
                    batch = Arrays.copyOf(batch, batched * 2);
                } catch (OutOfMemoryError e) {
                    return false; // pushed alone, as without a capture
                }
            }
            batch[batched++] = task;
            return true;
        }
        if (kept != null) return false;
        kept = task;
        return true;
    }

    /** Runs on the calling carrier a task it captured, admitted as a resume (never dropped, even if refused). */
    static void runCaptured(CarrierPool pool, Runnable task, CarrierTally tally) {
        try {
            pool.admitHandedOver();
        } catch (RuntimeException retired) {
            task.run(); // retired under it (only after close): run it anyway, uncounted
            return;
        }
        pool.runTask(task, tally);
    }

    /** Ends a look's capture; returns the kept task, or null. */
    private Runnable closeCapture() {
        capturing = null;
        Runnable k = kept;
        kept = null;
        return k;
    }
}
