package dev.gpureactor.carrier;

/**
 * A carrier that may capture the first virtual thread woken by its between-tasks work (a parker's
 * turn lent to it): that thread then runs next on this carrier, with no push and no wake of another
 * carrier (the pool's push would signal an idle one). Only the carrier's own thread touches it.
 */
final class CarrierCapture {
    /**
     * The least time between two looks a carrier begins. A look reads every word of every line a parking
     * parker armed (8 lines: 128 acquire loads, each with its line's and its arena's liveness checks). After
     * each of a mass wake's resumes (about 0.6 µs each) that cost the carriers about 1.1 ms of CPU in a
     * 10,000-waiter wake (docs/SCALE.md, "Three costs of a mass wake"). A service's tasks are tens of
     * microseconds apart, so nearly every one is still followed by a look, and a burst's store is seen no more
     * than this much later than with a look after every task.
     */
    static final long LOOK_GAP_NANOS = 5_000;

    /** When this carrier last began a look ({@code System.nanoTime}); as far back as a gap at first. */
    private long lookedAt = System.nanoTime() - LOOK_GAP_NANOS;
    /** The pool whose tasks are captured now; null when not capturing. */
    private CarrierPool capturing;
    /** The captured task, or null. */
    private Runnable kept;

    /** Whether a look may begin now: none began within the last {@link #LOOK_GAP_NANOS}. Counts one as begun. */
    boolean lookDue() {
        long now = System.nanoTime();
        if (now - lookedAt < LOOK_GAP_NANOS) return false;
        lookedAt = now;
        return true;
    }

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

    /** Keeps {@code task} if capturing for {@code pool} and nothing is kept yet; the others are pushed as usual. */
    boolean capture(CarrierPool pool, Runnable task) {
        if (pool != capturing || kept != null) return false;
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

    /** Ends the capture; returns the kept task, or null. */
    private Runnable closeCapture() {
        capturing = null;
        Runnable k = kept;
        kept = null;
        return k;
    }
}
