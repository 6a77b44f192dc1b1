package dev.gpureactor.carrier;

/**
 * A carrier that may capture the first virtual thread woken by its between-tasks work (a parker's
 * turn lent to it): that thread then runs next on this carrier, with no push and no wake of another
 * carrier (the pool's push would signal an idle one). Only the carrier's own thread touches it.
 */
final class CarrierCapture {
    /** The pool whose tasks are captured now; null when not capturing. */
    private CarrierPool capturing;
    /** The captured task, or null. */
    private Runnable kept;

    void openCapture(CarrierPool pool) { capturing = pool; }

    /** Keeps {@code task} if capturing for {@code pool} and nothing is kept yet; the others are pushed as usual. */
    boolean capture(CarrierPool pool, Runnable task) {
        if (pool != capturing || kept != null) return false;
        kept = task;
        return true;
    }

    /** Ends the capture; returns the kept task, or null. */
    Runnable closeCapture() {
        capturing = null;
        Runnable k = kept;
        kept = null;
        return k;
    }
}
