package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ReactorException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The mailboxes of one parker: how every thread but the loop's owner talks to it. Registrars offer
 * registrations and withdrawals, closers offer line-close notices or set {@code closing}, and each
 * then reads the flags the loop's owner announces before it sleeps, parks, hosts or leaves: the
 * registrar's half of each Dekker pair (docs/DESIGN.md §5). The owner's halves that re-check these
 * mailboxes ({@link #announceSleep}, {@link #announcePark}, {@link #leave}) live here too, so each
 * pair reads in one place; the owner drains the mailboxes into its {@link LineGroup} each turn.
 */
public final class ParkerInbox implements Removals {
    private static final VarHandle SLEEPING, PARKING;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SLEEPING = l.findVarHandle(ParkerInbox.class, "sleeping", boolean.class);
            PARKING = l.findVarHandle(ParkerInbox.class, "parking", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A line closed under a parker that goes on: {@code done} counts down once its watch is dropped. */
    private record LineClose(CompletionLine line, ReactorException why, CountDownLatch done) { }

    /** The parker's turn over its lines, drained into and failed by the loop's owner only. */
    private final LineGroup group;
    private final ParkerHosting hosting;
    private final ReactorCounters counters;
    /** False only in jcstress negative controls (see {@link ParkerHooks}). */
    private final boolean readsGone, readsParking;

    /** Registrations: offered (release) before the registrar's reads, polled (acquire) after the snapshot. DESIGN §5 "registration". */
    private final ConcurrentLinkedQueue<LineWait> inbox = new ConcurrentLinkedQueue<>();
    /**
     * Withdrawals (cancel, timeout, interrupt), polled after the inbox (acquire). One that overtakes
     * its registration finds no wait; the registration, drained later, is settled and only counted out.
     */
    private final ConcurrentLinkedQueue<LineWait> removals = new ConcurrentLinkedQueue<>();
    /** Line-close notices, polled (acquire) before the registrations; each {@code done} counts down once its watch is dropped. DESIGN §5 "line close". */
    private final ConcurrentLinkedQueue<LineClose> lineCloses = new ConcurrentLinkedQueue<>();
    private final CountDownLatch left = new CountDownLatch(1);

    /** The owner sleeps in the OS: set before its re-check, CASed clear by the one waker. DESIGN §5 "parker sleep". */
    private volatile boolean sleeping;
    /** The owner parks on {@link #armed}: set before its re-check, CASed clear by a registrar on a line not armed. DESIGN §5 "park on some lines". */
    private volatile boolean parking;
    /** The watches the current or next park arms (immutable; written before {@code parking}). DESIGN §5 "park on some lines". */
    private volatile List<LineWatch> armed = List.of();
    /** The thread that runs the loop now, whom a waker unparks: written before each hand-over. DESIGN §5 "loop hand-over". */
    private volatile Thread thread;
    /** Why the parker stops: set once by {@link #close} before its unpark; re-checked by every announcement. */
    private volatile ReactorException closing;
    /** Why the parker left: written by the leaver before its last drain and before it takes the standby. DESIGN §5 "registration vs leaving", "standing by vs leaving". */
    private volatile ReactorException gone;

    ParkerInbox(LineGroup group, ParkerHosting hosting, ReactorCounters counters, ParkerHooks hooks) {
        this.group = group;
        this.hosting = hosting;
        this.counters = counters;
        this.readsGone = hooks.registrarReadsGone();
        this.readsParking = hooks.registrarReadsParking();
    }

    /**
     * The whole registration protocol, steps (1)–(3): register, then re-load the word with a
     * volatile load and complete {@code f} here if it is already reached.
     *
     * @return whether the re-check found the word reached
     */
    public boolean registerAndRecheck(LineWait f) {
        register(f);
        if (!f.descriptor().isCompleteVolatile()) return false; // the re-check half of the Dekker pair
        f.signal();
        return true;
    }

    /** The registration protocol's steps (1) and (2); {@link #registerAndRecheck} adds step (3), the re-check. */
    public void register(LineWait f) {
        counters.registered();
        offer(f);
        if (readsParking) wakeUnarmed(f.descriptor().line()); // after the offer: the Dekker pair with announcePark
        if (hosting.claimRelief()) hosting.relieve();
        ReactorException why = readsGone ? gone : null; // after the offer: the Dekker pair with leave
        if (why == null) why = closing;
        if (why != null && inbox.remove(f)) { // the parker may have left already: fail it here, once
            f.fail(why);
            counters.deregistered();
        }
    }

    /** Steps (1) and (2) of the registration protocol: offer {@code f}, then wake the parker if it sleeps. */
    public void offer(LineWait f) {
        inbox.offer(f); // release: the wait's fields before the drain's poll
        wake(); // after the offer: the Dekker pair with announceSleep
    }

    /** A cancelled, timed-out or interrupted future: drop it from its slot. */
    @Override
    public void remove(LineWait f) {
        removals.offer(f);
        wake(); // after the offer, as for a registration
    }

    /**
     * Takes a withdrawal back before the drain: a {@code ConcurrentLinkedQueue} removal and the
     * drain's poll CAS the same item, so exactly one of them has it. Once polled, the drain's
     * removal of {@code w} comes before it takes in any later registration (registrations, then
     * removals, in each drain), so a re-registration after a failed revoke is held after it.
     */
    @Override
    public boolean revoke(LineWait f) {
        return removals.remove(f);
    }

    /** Stops the parker: every pending waiter fails with {@code why}; waits (bounded) until it has left the line. */
    public void close(ReactorException why) {
        closing = why; // volatile: before the unpark; the loop and every announcement re-check it
        if (hosting.claimRelief()) hosting.relieve(); // a thread running a guest sees closing only once the guest parks
        Thread t = thread;
        if (t != null) LockSupport.unpark(t);
        if (t != Thread.currentThread()) {
            try {
                left.await(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A line of this parker closed while the parker goes on (it has other lines): its waits fail
     * with {@code why} and its watch is dropped. Waits (bounded) until the parker did so, unless it
     * is the parker's own thread or the parker has no thread or has left (its leaving failed them).
     */
    public void closeLine(CompletionLine line, ReactorException why) {
        LineClose c = new LineClose(line, why, new CountDownLatch(1));
        lineCloses.offer(c); // release: before the hosting, sleeping and gone reads below
        if (hosting.claimRelief()) hosting.relieve(); // a thread running a guest sees the notice only once the guest parks
        wake();
        Thread t = thread;
        if (t == null) return;
        LockSupport.unpark(t); // ends a fallback park, which a line that is not armed cannot end
        if (t == Thread.currentThread() || gone != null) return; // after the offer: leave drains the notices after writing gone
        try {
            c.done().await(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The registrar's half of the park handshake: the parker parks on lines that do not include
     * {@code line}, so no store of this registration's would end the park: end it. Read after the
     * offer; see {@link #announcePark}.
     */
    private void wakeUnarmed(CompletionLine line) {
        if (!(boolean) PARKING.getVolatile(this)) return; // SC, after the offer
        List<LineWatch> a = armed; // after parking: the park's lines or a later park's
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).line() == line) return; // a store on it ends the park
        }
        if (PARKING.compareAndSet(this, true, false)) LockSupport.unpark(thread); // the CAS: one unpark per park
    }

    private void wake() {
        // SC read after the caller's offer (the pair with announceSleep); the CAS: one unpark per sleep
        if ((boolean) SLEEPING.getVolatile(this) && SLEEPING.compareAndSet(this, true, false)) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * The loop's thread leaves for good: publish {@code why} as {@code gone}, then fail what
     * registrars offered before they could see it, then wake the thread standing by (it reads
     * {@code gone} and ends: see {@link ParkerHosting#standBy}). Returns whether there was one.
     */
    public boolean leave(ReactorException why) {
        gone = why; // volatile, before the last drain: the Dekker pair with register's offer-then-read
        failAll(why);
        LineClose c;
        while ((c = lineCloses.poll()) != null) c.done().countDown(); // its waits failed with the rest
        ParkerThread s = hosting.takeStandby(); // after gone: the pair with standBy
        if (s != null) LockSupport.unpark(s);
        left.countDown();
        return s != null;
    }

    /**
     * The parker's half of the sleep handshake: (a) set {@code sleeping}, (b) re-check the
     * mailboxes. Returns {@code true} when the parker may park; {@code false} (flag cleared again)
     * when something arrived, so the loop turns instead. Parker thread only.
     */
    public boolean announceSleep() {
        SLEEPING.setVolatile(this, true); // SC, before the re-check: the pair with a waker's offer-then-read
        if (!inbox.isEmpty() || !removals.isEmpty() || !lineCloses.isEmpty() || closing != null) {
            SLEEPING.setVolatile(this, false);
            return false;
        }
        return true;
    }

    /** The sleep is over: a waker need not unpark. */
    void awake() {
        SLEEPING.setVolatile(this, false);
    }

    /**
     * The parker's half of the park handshake: publish the watches the park arms, set
     * {@code parking}, then re-check the inbox. Returns whether the parker may park; when not (a
     * registration came), it turns again. The caller calls {@link #parked} after the park either way.
     */
    public boolean announcePark(List<LineWatch> on) {
        armed = on; // volatile, before parking: a registrar that reads parking set then sees these lines
        PARKING.setVolatile(this, true); // SC, before the re-check: the pair with wakeUnarmed
        return inbox.isEmpty() && lineCloses.isEmpty();
    }

    /** The park is over: a registrar need not end it. */
    void parked() {
        PARKING.setVolatile(this, false);
    }

    /** The hosting announcement's re-check ({@link ParkerHosting#announceHosting}): nothing offered, no close. */
    boolean quiet() {
        return inbox.isEmpty() && lineCloses.isEmpty() && closing == null;
    }

    /** Takes in line closes (each failed and dropped), then registrations (each routed to its line), then removals. */
    void drain() {
        LineClose c;
        while ((c = lineCloses.poll()) != null) {
            group.closeLine(c.line(), c.why());
            c.done().countDown();
        }
        LineWait f;
        while ((f = inbox.poll()) != null) group.add(f);
        while ((f = removals.poll()) != null) group.remove(f);
    }

    /** Fails the waits held and every registration in the inbox (loop's owner only). */
    void failAll(ReactorException why) {
        group.failAll(why);
        LineWait f;
        while ((f = inbox.poll()) != null) {
            counters.deregistered(); // before the fail, as a held wait's: a leaving tried again counts none twice
            f.fail(why);
        }
        removals.clear();
    }

    /** Records {@code t} as the thread that runs the loop now (volatile: before the hand-over that gives it the loop). */
    void runBy(Thread t) { thread = t; }

    /** The thread that runs the loop now (tests: who owns it after a hand-over). */
    public Thread loopThread() { return thread; }

    /** Why the parker stops, or null (the loop reads it each pass). */
    ReactorException closing() { return closing; }

    /** Whether the thread has left its loop (closed, line closed, or died of an {@link Error}). */
    public boolean isDead() { return gone != null; }

    boolean isClosing() { return closing != null; }

    /** Neither closing nor gone: registrations to it will be served. */
    boolean isLive() { return gone == null && closing == null; }

    /** Whether the parker is announced parking and no registrar has ended the park (tests). */
    public boolean isParking() { return parking; }

    /** Whether the parker is announced asleep and no wake has claimed it yet (the wake CAS clears it). */
    public boolean isSleeping() { return sleeping; }

    /** Whether a store on a line since the last turn's snapshot would end a park on {@code armed} (tests). */
    public boolean armedParkWouldEnd() { return SnapshotPark.differs(armed); }

    /** Registrations offered and not yet drained (tests). */
    public int inboxSize() { return inbox.size(); }

    /** Withdrawals offered and not yet drained (tests). */
    public int removalsSize() { return removals.size(); }
}
