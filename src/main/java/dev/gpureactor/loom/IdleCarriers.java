package dev.gpureactor.loom;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The carriers asleep in the OS, and the doorbell that wakes one when work arrives.
 *
 * <p><b>No lost wakeup.</b> A carrier going idle (1) pushes itself here, (2) re-checks for work, and
 * only then (3) parks. A submitter (a) enqueues its task, then (b) pops one sleeper and unparks it.
 * (1)/(a) are volatile writes and (2)/(b) volatile reads, so either the carrier's re-check sees the
 * task or the submitter's pop sees the carrier. {@link LockSupport#unpark} before {@code park} leaves
 * a permit, so the order of (b) and (3) does not matter. A carrier removes itself when it wakes,
 * whoever woke it; a spurious or duplicate wake only costs a look at the queue.
 */
final class IdleCarriers {
    private final ConcurrentLinkedDeque<Thread> sleepers = new ConcurrentLinkedDeque<>();

    /** Parks the calling carrier unless {@code workAvailable} says there is work; returns after any wake. */
    void sleep(BooleanSupplier workAvailable, long maxNanos) {
        Thread me = Thread.currentThread();
        if (announce(me, workAvailable)) {
            if (maxNanos == Long.MAX_VALUE) LockSupport.park(this); else LockSupport.parkNanos(this, maxNanos);
        }
        sleepers.remove(me);
    }

    /**
     * Steps (1) and (2) of going idle: push {@code me}, then re-check for work. Returns whether the
     * carrier may park; either way it stays listed until it removes itself. jcstress runs this
     * against {@link #signal} without parking.
     */
    boolean announce(Thread me, BooleanSupplier workAvailable) {
        sleepers.push(me);
        return !workAvailable.getAsBoolean();
    }

    /** Wakes one sleeping carrier, if any. Call after the work is visible. */
    boolean signal() {
        Thread t = sleepers.pollFirst();
        if (t == null) return false;
        LockSupport.unpark(t);
        return true;
    }

    void signalAll() {
        Thread t;
        while ((t = sleepers.pollFirst()) != null) LockSupport.unpark(t);
    }

    int sleeping() { return sleepers.size(); }
}
