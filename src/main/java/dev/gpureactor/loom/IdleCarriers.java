package dev.gpureactor.loom;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The carriers asleep in the OS, and the doorbell that wakes one when work arrives.
 *
 * <p><b>No lost wakeup.</b> A carrier going idle (1) pushes a {@link Sleeper} of its own here,
 * (2) re-checks for work, and only then (3) parks. A submitter (a) enqueues its task, then (b) pops
 * sleepers until it claims one (WAITING to SIGNALLED) and unparks it. (1)/(a) are volatile writes and
 * (2)/(b) volatile reads, so either the carrier's re-check sees the task or the submitter's pop sees
 * the carrier. {@link LockSupport#unpark} before {@code park} leaves a permit, so the order of (b)
 * and (3) does not matter.
 *
 * <p><b>No signal spent on a carrier that is not asleep.</b> A carrier whose re-check (2) found work,
 * or that woke without a signal, withdraws its sleeper (WAITING to WITHDRAWN), and a submitter skips
 * withdrawn sleepers. When the withdrawal loses to a submitter's claim, the signal was meant for a
 * task this carrier may not be the one to run (it runs the work it found first), so it passes the
 * signal on to the next sleeper; otherwise a task would wait behind a busy carrier while another
 * sleeps (issue 14, item 10). A pass-on that finds the task already taken costs one look at the queue.
 */
final class IdleCarriers {
    private static final int WAITING = 0, SIGNALLED = 1, WITHDRAWN = 2;

    /** One announcement of one carrier going idle. */
    static final class Sleeper {
        final Thread thread;
        /** WAITING, then SIGNALLED (by a submitter) or WITHDRAWN (by the carrier): one CAS decides. */
        final AtomicInteger state = new AtomicInteger(WAITING);

        Sleeper(Thread thread) { this.thread = thread; }
    }

    private final ConcurrentLinkedDeque<Sleeper> sleepers = new ConcurrentLinkedDeque<>();
    /** Whether a carrier that lost its withdrawal passes the signal on: false only in the negative control. */
    private final boolean passOn;

    IdleCarriers() { this(true); }

    /** {@code passOn = false} removes the pass-on: jcstress's negative control only. */
    IdleCarriers(boolean passOn) { this.passOn = passOn; }

    /** Parks the calling carrier unless {@code workAvailable} says there is work; returns after any wake. */
    void sleep(BooleanSupplier workAvailable) {
        Sleeper me = new Sleeper(Thread.currentThread());
        if (announce(me, workAvailable)) {
            LockSupport.park(this);
            // Woken by a claim (SIGNALLED: the signal is ours to serve) or spuriously: then withdraw.
            if (me.state.compareAndSet(WAITING, WITHDRAWN)) sleepers.remove(me);
        }
    }

    /** Steps (1) and (2) for {@code me}, as {@link #sleep} runs them (jcstress plays the carrier). */
    boolean announce(Thread me, BooleanSupplier workAvailable) {
        return announce(new Sleeper(me), workAvailable);
    }

    /**
     * Steps (1) and (2) of going idle: push {@code me}, then re-check for work. Returns whether the
     * carrier may park; when it may not, its sleeper is withdrawn (or its signal passed on).
     */
    boolean announce(Sleeper me, BooleanSupplier workAvailable) {
        sleepers.push(me);
        if (!workAvailable.getAsBoolean()) return true;
        withdraw(me);
        return false;
    }

    /** The carrier is not asleep: take its sleeper back, or, if a submitter claimed it first, pass the signal on. */
    private void withdraw(Sleeper me) {
        if (me.state.compareAndSet(WAITING, WITHDRAWN)) {
            sleepers.remove(me); // no submitter will claim it now; removing it only keeps the deque short
        } else if (passOn) {
            signal();
        }
    }

    /** Wakes one sleeping carrier, if any. Call after the work is visible. */
    boolean signal() {
        Sleeper s;
        while ((s = sleepers.pollFirst()) != null) {
            if (s.state.compareAndSet(WAITING, SIGNALLED)) {
                LockSupport.unpark(s.thread);
                return true;
            }
        }
        return false;
    }

    void signalAll() {
        while (signal()) {
            // every waiting sleeper is claimed and unparked
        }
    }

    /** Sleepers listed and not withdrawn or claimed (a signal would wake one). O(n): tests and stats only. */
    int sleeping() {
        int n = 0;
        for (Sleeper s : sleepers) if (s.state.get() == WAITING) n++;
        return n;
    }
}
