package dev.gpureactor.parker;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.Uncaught;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Hosting, the locality-first wake of one parker: a virtual thread a turn woke runs on the parker
 * thread that saw its store, while a second thread stands by to take the loop. When the lines still
 * have waits, the owner first hands the loop to the thread standing by (leader/follower,
 * {@link #handOver}); when they have none, it keeps the loop while its guest runs, and a registrar
 * or closer that comes meanwhile relieves it ({@link #claimRelief}). A relieved thread, once its guest
 * parks, runs what still waits for a carrier ({@link #runWaiting}), then stands by again
 * ({@link #standBy}). The handshakes are docs/DESIGN.md §5's "hosting vs registration", "loop
 * hand-over" and "standing by vs leaving"; nothing here throws into the loop (§6, "Nothing around a
 * guest throws into the loop").
 */
public final class ParkerHosting {
    private static final VarHandle HOSTING, SPARE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HOSTING = l.findVarHandle(ParkerHosting.class, "hosting", Object.class);
            SPARE = l.findVarHandle(ParkerHosting.class, "spare", ParkerThread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code hosting} once a registrar or close took the loop from a hosting thread. */
    private static final Object RELIEVED = new Object();

    /** The parker whose loop this hands around (its threads run it, its group says whether lines wait). */
    private final LineParker parker;
    /** The carriers whose woken virtual threads the parker may run itself; null: it never hosts. */
    private final CarrierPool pool;
    private final ReactorCounters counters;
    private final ParkerHooks hooks;
    /** False only in a jcstress negative control (see {@link ParkerHooks}). */
    private final boolean threadFirst;
    /** False only in a jcstress negative control: a relieved thread announces itself at once ({@link #announceAfterRelief}). */
    private final boolean awaitsPendingRelief;

    /**
     * Null while the loop's thread watches; that thread while it runs a guest; {@link #RELIEVED} once a
     * registrar or close took the loop. Only CASes end a hosting or claim it. DESIGN §5 "hosting vs registration".
     */
    private volatile Object hosting;
    /** A relieved thread standing by to take the loop again, or null: CAS in, getAndSet out. DESIGN §5 "standing by vs leaving". */
    private volatile ParkerThread spare;
    /** Whether the standing-by thread was started (loop's thread only; the flag moves with the loop). */
    private boolean spareStarted;

    ParkerHosting(LineParker parker, CarrierPool pool, ReactorCounters counters, ParkerHooks hooks) {
        this.parker = parker;
        this.pool = pool;
        this.counters = counters;
        this.hooks = hooks;
        this.threadFirst = hooks.handOverWritesThreadFirst();
        this.awaitsPendingRelief = hooks.awaitsPendingRelief();
    }

    /**
     * Runs a virtual thread this turn woke here, on the thread that saw its store, instead of
     * waiting for a carrier to wake. It hosts only while a thread stands by, so relief never waits
     * for a thread to be made. Returns whether this thread still owns the loop.
     */
    boolean host(ParkerThread me, Runnable guest) {
        if (spare == null) {
            resume(guest); // no thread to take the loop or to relieve it: the carriers run it
            return true;
        }
        if (parker.group.waiting() != 0) {
            // Leader/follower: the lines have waits to watch, so the loop goes to the thread standing
            // by first (the hand-over a relief makes), and then this thread runs the guest it woke.
            // Nothing of the loop is touched from here on: the caller returns as a relieved thread.
            try {
                handOver();
            } catch (Throwable t) { // no thread for the loop (out of memory): the loop stays this one's, the guest goes on
                resume(guest);
                throw t;
            }
            countHosting(me, true);
            runGuest(me, guest);
            runWaiting(me);
            me.cpuSinceLastSample(); // the guests' CPU, dropped: RunStats' parker CPU stays the parker's own
            return false;
        }
        if (!announceHosting(me)) return handBack(me, guest); // a registration or close came first
        countHosting(me, false);
        runGuest(me, guest);
        return endHosting(me);
    }

    /**
     * Gives a guest this thread will not run to the carriers, as its unpark would have (a carrier
     * running a lent turn captures it to run next); one whose push runs out of memory is pushed again
     * until queued ({@link CarrierPool#resumeSurely}): its unpark returned, so nobody else would.
     */
    private void resume(Runnable guest) {
        try {
            pool.execute(guest);
        } catch (OutOfMemoryError e) {
            pool.resumeSurely(guest);
        }
    }

    /**
     * Counts a hosting and, after a hand-over, books the loop's CPU so far to the parker (the guest's
     * is the user's, not booked). It never throws: the guest must still run, and once the loop was
     * handed over, or a relief may have taken it, the loop's error handling is another thread's. What
     * fails goes to this thread's handler.
     */
    private void countHosting(ParkerThread me, boolean handedOver) {
        try {
            hooks.beforeHostingCount(parker);
            counters.hosted();
            if (handedOver) parker.sampleCpu(me);
        } catch (Throwable t) {
            Uncaught.report(me, t);
        }
    }

    /**
     * A relieved thread whose guest parked, before it stands by: runs up to {@link #RUN_WAITING_MAX}
     * tasks still waiting for a carrier ({@link CarrierPool#runWaiting}), as the next wake of its own
     * turn, pushed because this thread could host only one. Pushed to carriers that hosting leaves idle
     * in the OS, such a wake waited for one's wake-up: p50 30–40 µs, p99 0.4–0.7 ms, two to five times
     * the JDK scheduler's (docs/SERVICE.md, "Where the tail at 512 comes from"). A carrier that wakes
     * first takes it instead (the queue's claim decides). It never throws: the loop is another's.
     */
    private void runWaiting(ParkerThread me) {
        int ran = 0;
        try {
            while (ran < RUN_WAITING_MAX && pool.runWaiting()) ran++; // each counted done once, by the pool
        } catch (Throwable t) {
            Uncaught.report(me, t);
        } finally {
            if (ran > 0) counters.ranWaiting(ran); // RunStats.ranWaiting: those it ran, whatever ended the loop
        }
    }

    /** Tasks a relieved thread runs for the carriers before it stands by (measured: 1 and 4, docs/SERVICE.md). */
    static final int RUN_WAITING_MAX = 4;

    /**
     * Runs a hosted virtual thread until it parks or ends. It never throws: what the guest's run
     * throws goes to this thread's handler, and what that throws is dropped ({@link Uncaught#report}).
     */
    private static void runGuest(ParkerThread me, Runnable guest) {
        try {
            guest.run();
        } catch (Throwable t) {
            Uncaught.report(me, t);
        }
    }

    /**
     * Declines to host after announcing it: end the hosting first, then give the guest to the
     * carriers. Once a relief claimed the loop, its waits are another thread's: should the carriers
     * refuse the guest, this thread, not the loop's, runs it itself. Returns whether this thread
     * still owns the loop.
     */
    public boolean handBack(ParkerThread me, Runnable guest) {
        boolean mine = endHosting(me);
        try {
            resume(guest);
        } catch (RuntimeException e) {
            if (mine) throw e; // still the owner: the loop's error handling is for it
            runGuest(me, guest); // a woken virtual thread is never dropped
        }
        return mine;
    }

    /**
     * The parker's half of the hosting handshake: announce {@code me} as hosting, then re-check the
     * inbox, the line-close notices and {@code closing}. Returns whether the parker may run its
     * guest; when not, the announcement stays until {@link #endHosting}.
     */
    public boolean announceHosting(Object me) {
        HOSTING.setVolatile(this, me);
        return parker.inbox.quiet();
    }

    /** Ends {@code me}'s hosting; false when a registrar or close relieved it first (the loop is another's). */
    public boolean endHosting(Object me) {
        return HOSTING.compareAndSet(this, me, null);
    }

    /**
     * A registrar's (or close's) half: if a thread is hosting, take the loop from it (one CAS, so
     * exactly one of this and {@link #endHosting} wins). The winner must then {@link #relieve}.
     */
    public boolean claimRelief() {
        Object h = hosting;
        return h != null && h != RELIEVED && HOSTING.compareAndSet(this, h, RELIEVED);
    }

    /** Hands the loop to the thread standing by, after a won {@link #claimRelief}. */
    void relieve() {
        counters.relieved();
        handOver(true);
    }

    /**
     * Gives the loop to the thread standing by; returns whether one was there. A new thread is the
     * fallback should none be (never a loop left unowned). Package-private for jcstress
     * ({@code LoopHandOverStress}).
     */
    public boolean handOver() {
        return handOver(false);
    }

    /** {@link #handOver()}; {@code relief}: a relief hands it, and the new owner emits its JFR event. */
    private boolean handOver(boolean relief) {
        ParkerThread s = takeStandby();
        if (s == null) {
            ParkerThread fresh = new ParkerThread(parker, "gar-parker-" + parker.name());
            fresh.relief = relief; // published by start()
            parker.inbox.runBy(fresh);
            fresh.start();
            return false;
        }
        s.relief = relief; // published by handed, below
        if (!threadFirst) s.handed = true; // negative control: published before the owner's last write
        parker.inbox.runBy(s); // volatile, but it is handed that publishes: written before it
        s.handed = true; // volatile, last: the new owner reads it, then the loop's state (group, thread, spareStarted)
        LockSupport.unpark(s);
        return true;
    }

    /**
     * Starts the thread that stands by to relieve a host, once, as a hosting loop first starts
     * (loop's thread only). Later each relieved thread stands by in turn once its guest parks.
     */
    void startStandbyOnce() {
        if (pool == null || spareStarted) return;
        spareStarted = true;
        ParkerThread s = new ParkerThread(parker, "gar-parker-" + parker.name());
        s.startsStandingBy = true;
        s.start();
    }

    /**
     * A relieved thread, once its guest has parked: stand by to be handed the loop again. Returns
     * true when handed it; false when another thread already stands by or the parker left. It never
     * throws: a thread standing by is not the loop's owner.
     */
    boolean standBy(ParkerThread me) {
        if (!announceAfterRelief(me)) return false;
        // No CPU sample here: what this thread burns from its guests' end (host's drop) to its next sample
        // is the parker's, and that sample books it (as the loop's owner, or as the thread ends). A thread
        // CPU read is a system call; this third one of each hand-over was 0.6 µs a request at 16 clients.
        try {
            hooks.beforeStandby(parker);
        } catch (Throwable t) {
            // Not the loop's owner: an Error here must not make it leave the loop, failing the owner's
            // waits from outside; and it is published as standing by.
            Uncaught.report(me, t);
        }
        while (!me.handed) {
            if (parker.inbox.isDead()) { // gone, after publishing in spare: the pair with leave
                SPARE.compareAndSet(this, me, null);
                return me.handed;
            }
            LockSupport.park(parker);
            Thread.interrupted(); // foreign, as in the loop: left set, this wait would spin
        }
        return true;
    }

    /** Publishes {@code me} as the thread standing by; false when another one already is. */
    public boolean announceStandby(ParkerThread me) {
        me.handed = false;
        return SPARE.compareAndSet(this, null, me);
    }

    /**
     * A relieved thread's announcement ({@link #announceStandby}), once the relief that took its loop has
     * handed the loop over. A registrar's relief claims the loop ({@link #claimRelief}) and only then takes
     * the thread standing by ({@link #handOver}); the host, its guest parked, finds itself relieved
     * ({@link #endHosting} false) and comes to stand by, maybe between the two. Announced then, it finds
     * the slot still holding the thread the relief is about to take, fails, and leaves: the parker is left
     * with no thread standing by, so it never hosts again (a service started at low load, where reliefs are
     * frequent, lost it in its first seconds: docs/RELIABILITY.md, "A parker that stopped hosting for
     * good"). So while the loop
     * is still written as this thread's ({@code thread}: the hand-over writes its new owner after taking the
     * standby), a relief of it is under way, and it waits for that first: a registrar's few instructions,
     * bounded ({@link #PENDING_RELIEF_MAX_NANOS}) should the hand-over never come (it ran out of memory).
     * Public for jcstress ({@code ReliefStandbyStress}). Returns whether it stands by now.
     */
    public boolean announceAfterRelief(ParkerThread me) {
        // Read before the announcement, not after its failure: read after, a hand-over that ended in between
        // looks like another thread standing by (the first version; ReliefStandbyStress showed it).
        long deadline = 0;
        for (int i = 0; awaitsPendingRelief && parker.inbox.loopThread() == me; i++) { // volatile: written after the take
            if (i < PENDING_RELIEF_SPINS) {
                Thread.onSpinWait();
                continue;
            }
            long now = System.nanoTime();
            if (deadline == 0) deadline = now + PENDING_RELIEF_MAX_NANOS;
            else if (now - deadline >= 0) return false; // no hand-over came: leave, as before
            LockSupport.parkNanos(PENDING_RELIEF_PARK_NANOS); // the registrar lost its core: let it run
        }
        return announceStandby(me); // fails only where another thread stands by: this one leaves
    }

    /** Spins a relieved thread waits for its relief's hand-over before it parks ({@link #announceAfterRelief}). */
    static final int PENDING_RELIEF_SPINS = 256;
    /** Its parks, while it waits: a registrar descheduled between its claim and its hand-over gets the core. */
    static final long PENDING_RELIEF_PARK_NANOS = 100_000;
    /** How long it waits at most: a hand-over that never comes ran out of memory making a thread. */
    static final long PENDING_RELIEF_MAX_NANOS = 1_000_000_000L;

    /** Takes the thread standing by, or null (a hand-over, or the leaver after it writes {@code gone}). */
    ParkerThread takeStandby() {
        return (ParkerThread) SPARE.getAndSet(this, null);
    }

    /** Whether a thread stands by to relieve a host (tests: hosting is possible now). */
    public boolean hasStandby() { return spare != null; }
}
