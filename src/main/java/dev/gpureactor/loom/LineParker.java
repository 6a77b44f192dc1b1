package dev.gpureactor.loom;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.DeadlinePlan;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Sleeper;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import dev.gpureactor.park.TimerSlack;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one platform thread that waits on a {@link CompletionLine} for every future of its eight
 * slots, and unparks exactly the waiters whose words reached their targets.
 *
 * <p><b>Loop.</b> With no waiters it blocks in the OS. With waiters it sleeps in the OS to the
 * earliest predicted completion (from the {@link PointTable}), then runs bounded parks on the line
 * (bound = min(park, next backstop)); after every wake it scans each busy slot from its lowest
 * target up, completing every reached future, so a wake costs O(woken · log n). At least every
 * backstop it queries the head of each busy slot's port, the error authority: a failed stream fails
 * that slot's waiters with the port's coded error; a port that says done for a word never written
 * completes the waiter with a {@link ErrorCode#WordNeverWritten} warning.
 *
 * <p><b>Registration protocol (no lost wakeup).</b> A registering thread (1) offers the future to
 * {@code inbox} (a volatile write), (2) reads {@code sleeping} and, if set, CASes it clear and
 * unparks this thread, then (3) re-loads the word with a volatile load and completes the future
 * itself if it is reached. The parker (a) sets {@code sleeping} (volatile), (b) re-checks
 * {@code inbox}, and only then (c) parks. Both pairs are sequentially consistent, so either the
 * registrar sees {@code sleeping} and wakes the parker, or the parker sees the inbox entry; and
 * either the registrar's re-load sees the device's store, or the store happens after it and the
 * parker sees it: each turn snapshots the line (acquire) before it drains the inbox and scans the
 * snapshot, so a snapshot that holds the store also holds the registration made before it, and a
 * store after the snapshot ends the park that compares against it. jcstress proves each half
 * ({@code RegistrationRecheckStress}, {@code StoreAfterRegistrationStress}, {@code ParkerSleepStress}).
 *
 * <p><b>Ownership.</b> The per-slot sets are touched by the loop's thread only (one at a time: see
 * hosting below; each hand-over is a volatile write read by the next owner); other threads talk to it
 * through {@code inbox}, {@code removals} and {@code sleeping}. A future's state moves by CAS, so a
 * future the parker completes and one a caller cancels cannot both win.
 *
 * <p><b>Failure.</b> An exception in the loop fails the current waiters with
 * {@link ErrorCode#ParkerDied} and the loop goes on; an {@link Error} does the same and ends the
 * thread, and the reactor starts a new parker for the line on its next registration.
 *
 * <p><b>Hosting (the locality-first wake).</b> With a carrier pool to host for, a turn keeps the
 * first virtual thread it wakes ({@link ParkerThread#capture}) and, when the line has nothing else
 * to watch, runs it on this thread, where the store was seen, instead of waking a carrier asleep in
 * the OS. While the guest runs nobody watches the line, so a registration or close that comes
 * meanwhile <em>relieves</em> the hosting thread: one CAS on {@code hosting} takes the loop from it
 * and hands it to the thread standing by, which goes on at once; the relieved thread stands by in
 * its turn once its guest parks. The parker announces hosting and then re-checks the inbox, a
 * registrar offers and then reads {@code hosting}, so one of them sees the other
 * ({@code HostingReliefStress}); ending the hosting and claiming relief are CASes on one field, so
 * the loop has exactly one owner ({@code HostingOwnerStress}); and a thread standing by publishes
 * itself before it reads {@code gone}, so a leaving parker wakes it ({@code StandbyLeaveStress}).
 *
 * <p><b>Leaving (nothing waits forever).</b> However the loop ends (close, a closed line, an
 * {@link Error}), the thread sets {@code gone} and only then drains the inbox one last time,
 * failing what it finds. A registrar offers to the inbox and only then reads {@code gone} (and
 * {@code closing}); if set, it takes its own entry back and fails it. The offer/poll and the two
 * volatile accesses form the same Dekker pair as above, so an entry is either drained by the
 * leaving thread or seen by its registrar: no registration is stranded in the inbox of a parker
 * that left. {@link #isLive()} is false from then on, and the reactor replaces the parker.
 */
final class LineParker implements Runnable {
    private static final VarHandle SLEEPING, HOSTING, SPARE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SLEEPING = l.findVarHandle(LineParker.class, "sleeping", boolean.class);
            HOSTING = l.findVarHandle(LineParker.class, "hosting", Object.class);
            SPARE = l.findVarHandle(LineParker.class, "spare", ParkerThread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code hosting} once a registrar or close took the loop from a hosting thread. */
    private static final Object RELIEVED = new Object();

    /** Wrapping order of targets, then registration order. */
    static final Comparator<GpuFuture<?>> BY_TARGET = (a, b) -> {
        long d = a.descriptor().target() - b.descriptor().target();
        return d != 0 ? (d < 0 ? -1 : 1) : Long.compare(a.id, b.id);
    };

    private final CompletionLine line;
    private final LinePark park;
    private final WaitPlan.FlagWait plan;
    private final Optional<DeadlinePlan> deadline;
    private final PointTable<Object> points;
    private final Clock clock;
    private final Consumer<Warning> warnings;
    private final ReactorCounters counters;
    /** How long after a predicted wake the parker spins (no hardware park) before sleeping in slices. */
    private final long spinWindowNanos;
    /** Where deadline sleeps go instead of parkNanos (an io_uring timeout); null for parkNanos. One per parker thread. */
    private final Supplier<Sleeper> deadlineSleeperFactory;
    /** The carriers whose woken virtual threads this parker may run itself; null: it never hosts. */
    private final CarrierPool hostPool;

    private final ConcurrentLinkedQueue<GpuFuture<?>> inbox = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<GpuFuture<?>> removals = new ConcurrentLinkedQueue<>();
    @SuppressWarnings("unchecked")
    private final TreeSet<GpuFuture<?>>[] slots = new TreeSet[CompletionLine.WORDS];
    private final long[] lastQuery = new long[CompletionLine.WORDS];
    private final long[] snapshot = new long[CompletionLine.WORDS];
    private final Oversleep oversleep = new Oversleep();
    private final long marginNanos;
    /** Whether the last timed sleep ended later than its allowance (parker loop only). */
    private boolean osLate;
    private final CountDownLatch left = new CountDownLatch(1);

    private volatile boolean sleeping;
    /** The thread that runs the loop now (it changes when a hosting thread is relieved). */
    private volatile Thread thread;
    /** Null while the loop's thread watches; that thread while it runs a guest; {@link #RELIEVED}. */
    private volatile Object hosting;
    /** A relieved thread standing by to take the loop again, or null. */
    private volatile ParkerThread spare;
    /** Set before the first thread starts; relief threads do not count as parkers started. */
    private boolean started;
    /** Whether the standing-by thread was started (loop's thread only; the flag moves with the loop). */
    private boolean spareStarted;
    /** Set by {@link #close}: why pending waiters fail. */
    private volatile ReactorException closing;
    /** Set by the parker thread as it leaves its loop, before its last drain of the inbox. */
    private volatile ReactorException gone;
    private int waiting;
    /** What {@link #step} decided, for the loop to perform (parker thread only). */
    private long sleepAt, parkBound, parkSpin;

    /** {@link #step}'s answers: how the loop waits next. */
    static final int AGAIN = 0, IDLE = 1, SLEEP = 2, PARK = 3;

    /**
     * Fault injection for tests only: run at the top of every pass of the loop, inside its error
     * handling (a test sets it to throw an {@link Error} to kill this parker). Null in production.
     */
    volatile Runnable passHook;

    LineParker(CompletionLine line, LinePark park, WaitPlan.FlagWait plan, PointTable<Object> points, Clock clock,
               Consumer<Warning> warnings, ReactorCounters counters, long spinWindowNanos,
               Supplier<Sleeper> deadlineSleeperFactory, CarrierPool hostPool) {
        this.deadlineSleeperFactory = deadlineSleeperFactory;
        this.hostPool = hostPool;
        this.spinWindowNanos = spinWindowNanos;
        this.line = line;
        this.park = park;
        this.plan = plan;
        this.deadline = plan.predict();
        this.marginNanos = deadline.map(DeadlinePlan::marginNanos).orElse(0L);
        this.points = points;
        this.clock = clock;
        this.warnings = warnings;
        this.counters = counters;
        for (int i = 0; i < slots.length; i++) slots[i] = new TreeSet<>(BY_TARGET);
    }

    void start() {
        Thread t = new ParkerThread(this, "gar-parker-" + line.name());
        thread = t;
        t.start();
    }

    CompletionLine line() { return line; }

    /** Whether the thread has left its loop (closed, line closed, or died of an {@link Error}). */
    boolean isDead() { return gone != null; }

    boolean isClosing() { return closing != null; }

    /**
     * The whole registration protocol, steps (1)–(3): register, then re-load the word with a
     * volatile load and complete {@code f} here if it is already reached.
     *
     * @return whether the re-check found the word reached
     */
    boolean registerAndRecheck(GpuFuture<?> f) {
        register(f);
        if (!f.descriptor().isCompleteVolatile()) return false; // the re-check half of the Dekker pair
        f.signal();
        return true;
    }

    /** Whether a thread stands by to relieve a host (tests: hosting is possible now). */
    boolean hasStandby() { return spare != null; }

    /** Neither closing nor gone: registrations to it will be served. */
    boolean isLive() { return gone == null && closing == null; }

    /** The registration protocol's steps (1) and (2); {@link #registerAndRecheck} adds step (3), the re-check. */
    void register(GpuFuture<?> f) {
        counters.registered();
        offer(f);
        if (claimRelief()) relieve();
        ReactorException why = gone;
        if (why == null) why = closing;
        if (why != null && inbox.remove(f)) { // the parker may have left already: fail it here, once
            f.fail(why);
            counters.deregistered();
        }
    }

    /** Steps (1) and (2) of the registration protocol: offer {@code f}, then wake the parker if it sleeps. */
    void offer(GpuFuture<?> f) {
        inbox.offer(f);
        wake();
    }

    /** A cancelled, timed-out or interrupted future: drop it from its slot. */
    void remove(GpuFuture<?> f) {
        removals.offer(f);
        wake();
    }

    /** Stops the parker: every pending waiter fails with {@code why}; waits (bounded) until it has left the line. */
    void close(ReactorException why) {
        closing = why;
        if (claimRelief()) relieve(); // a thread running a guest sees closing only once the guest parks
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

    private void wake() {
        if ((boolean) SLEEPING.getVolatile(this) && SLEEPING.compareAndSet(this, true, false)) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void run() {
        ParkerThread me = (ParkerThread) Thread.currentThread();
        if (!started) {
            started = true;
            counters.parkerStarted();
        }
        ReactorException why = null;
        boolean quiet = false; // left as a relieved thread: the loop is another's, or the parker already left
        try {
            TimerSlack.set(1); // the default 50 µs slack rounds every OS sleep of this thread up
            if (deadlineSleeperFactory != null) {
                try {
                    me.deadlineSleeper = deadlineSleeperFactory.get(); // opened here: a ring belongs to one thread
                } catch (RuntimeException e) {
                    warnings.accept(Warning.of(ErrorCode.ExecutorFallback, "deadline sleeps on " + line.name(), e.getMessage(), "parkNanos"));
                }
            }
            boolean relieved = me.startsStandingBy;
            if (hostPool != null && !relieved && !spareStarted) startSpare(); // hosting relieves onto it
            while (true) {
                if (relieved && !standBy(me)) {
                    quiet = true;
                    break;
                }
                if ((why = loop(me)) != null) break;
                relieved = true; // null: relieved while it ran a guest
            }
        } catch (Error e) {
            why = new ReactorException(ErrorCode.ParkerDied, e, line.name(), e.toString());
            throw e;
        } finally {
            if (me.deadlineSleeper instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception e) {
                    warnings.accept(Warning.of(ErrorCode.Backend, "parker", "close deadline sleeper", -1, e.getClass().getSimpleName(), e.getMessage()));
                }
            }
            if (!quiet) leave(why != null ? why : new ReactorException(ErrorCode.ParkerDied, line.name(), "its loop ended"));
        }
    }

    /**
     * Runs until closed, the line closes, or an {@link Error}; returns why it left, or null when
     * a registrar or close relieved this thread while it ran a guest (the loop is another thread's).
     */
    private ReactorException loop(ParkerThread me) {
        boolean afterSleep = false;
        while (true) {
            ReactorException c = closing;
            if (c != null) {
                failAll(c);
                return c;
            }
            try {
                Runnable hook = passHook;
                if (hook != null) hook.run();
                if (hostPool != null) me.openCapture(hostPool);
                int next;
                try {
                    next = step(afterSleep);
                } catch (Throwable t) {
                    Runnable kept = me.closeCapture();
                    if (kept != null) hostPool.execute(kept); // a woken virtual thread is never dropped
                    throw t;
                }
                Runnable guest = me.closeCapture();
                if (guest != null && !host(me, guest)) return null;
                switch (next) {
                    case IDLE -> {
                        sleepUntil(me, Long.MAX_VALUE);
                        afterSleep = false;
                    }
                    case SLEEP -> {
                        sleepUntil(me, sleepAt);
                        afterSleep = true;
                    }
                    case PARK -> {
                        counters.parked();
                        park.park(line, snapshot, parkBound, parkSpin);
                        afterSleep = false;
                    }
                    default -> { } // AGAIN: everything settled; look again at once
                }
            } catch (ReactorException e) {
                if (e.code() == ErrorCode.LineClosed || line.isClosed()) {
                    ReactorException closed = new ReactorException(ErrorCode.LineClosed, line.name(), "wait");
                    failAll(closed);
                    return closed;
                }
                failAll(new ReactorException(ErrorCode.ParkerDied, e, line.name(), e.getMessage()));
                warnings.accept(Warning.of(ErrorCode.ParkerDied, line.name(), e.getMessage()));
            } catch (RuntimeException e) {
                failAll(new ReactorException(ErrorCode.ParkerDied, e, line.name(), e.toString()));
                warnings.accept(Warning.of(ErrorCode.ParkerDied, line.name(), e.toString()));
            } catch (Error e) {
                failAll(new ReactorException(ErrorCode.ParkerDied, e, line.name(), e.toString()));
                warnings.accept(Warning.of(ErrorCode.ParkerDied, line.name(), e + " (thread ended; a new parker starts on the next registration)"));
                counters.parkerDied();
                throw e;
            }
        }
    }

    /**
     * The locality-first wake: a virtual thread this turn woke runs here, on the thread that saw
     * its store, instead of waiting for a carrier to wake. Only when the line has nothing else to
     * watch: while the guest runs nobody watches the line, so a registration or close that comes
     * meanwhile relieves this thread: the thread standing by takes the loop. It hosts only while
     * one stands by, so relief never waits for a thread to be made. Returns whether this thread
     * still owns the loop.
     */
    private boolean host(ParkerThread me, Runnable guest) {
        if (waiting != 0 || spare == null) {
            hostPool.execute(guest); // waits to watch, or no thread to relieve it: the carriers run it
            return true;
        }
        if (!announceHosting(me)) {
            hostPool.execute(guest); // a registration or close came first
            return endHosting(me);
        }
        counters.hosted();
        try {
            guest.run();
        } catch (Throwable t) {
            me.getUncaughtExceptionHandler().uncaughtException(me, t);
        }
        return endHosting(me);
    }

    /**
     * The parker's half of the hosting handshake: announce {@code me} as hosting, then re-check the
     * inbox and {@code closing}. A registrar offers and then reads {@code hosting}
     * ({@link #claimRelief}); both pairs are volatile, so either this re-check sees the offer (and
     * the parker does not host) or the registrar sees the announcement and relieves it. Returns
     * whether the parker may run its guest; when not, the announcement stays until
     * {@link #endHosting}.
     */
    boolean announceHosting(Object me) {
        HOSTING.setVolatile(this, me);
        return inbox.isEmpty() && closing == null;
    }

    /** Ends {@code me}'s hosting; false when a registrar or close relieved it first (the loop is no longer its own). */
    boolean endHosting(Object me) {
        return HOSTING.compareAndSet(this, me, null);
    }

    /**
     * A registrar's (or close's) half: if a thread is hosting, take the loop from it (one CAS, so
     * exactly one of this and {@link #endHosting} wins). The winner must then {@link #relieve}.
     */
    boolean claimRelief() {
        Object h = hosting;
        return h != null && h != RELIEVED && HOSTING.compareAndSet(this, h, RELIEVED);
    }

    /**
     * Hands the loop to the thread standing by. The hosting thread's writes to the loop's state
     * came before its announcement, which {@link #claimRelief}'s CAS read; the hand-over (the
     * volatile {@code handed}, or {@link Thread#start}) carries them on.
     */
    private void relieve() {
        counters.relieved();
        // A thread hosts only while one stands by, and only a relief takes it, so it is there; a
        // new thread is the fallback should that ever not hold (never a loop left unowned).
        ParkerThread s = (ParkerThread) SPARE.getAndSet(this, null);
        if (s == null) {
            s = new ParkerThread(this, "gar-parker-" + line.name());
            thread = s;
            s.start();
            return;
        }
        thread = s;
        s.handed = true;
        LockSupport.unpark(s);
    }

    /**
     * Starts the thread that stands by to relieve a host (once, as the loop starts). Later, each
     * relieved thread stands by in turn once its guest parks, so a hosting line keeps two threads,
     * one watching and one standing by. Loop's thread only.
     */
    private void startSpare() {
        spareStarted = true;
        ParkerThread s = new ParkerThread(this, "gar-parker-" + line.name());
        s.startsStandingBy = true;
        s.start();
    }

    /**
     * A relieved thread, once its guest has parked: stand by to be handed the loop again. Returns
     * true when handed it; false when another thread already stands by or the parker left.
     * Against leaving: this publishes itself in {@code spare} and then reads {@code gone}; the
     * leaving thread writes {@code gone} and then takes {@code spare}: one sees the other.
     */
    private boolean standBy(ParkerThread me) {
        if (!announceStandby(me)) return false;
        while (!me.handed) {
            if (gone != null) {
                SPARE.compareAndSet(this, me, null);
                return me.handed;
            }
            LockSupport.park(this);
        }
        return true;
    }

    /** Publishes {@code me} as the thread standing by; false when another one already is. */
    boolean announceStandby(ParkerThread me) {
        me.handed = false;
        return SPARE.compareAndSet(this, null, me);
    }

    /**
     * The loop's thread leaves for good: publish {@code why} as {@code gone}, then fail what
     * registrars offered before they could see it, then wake the thread standing by (it reads
     * {@code gone} and ends: see {@link #standBy}). Returns whether there was one.
     */
    boolean leave(ReactorException why) {
        gone = why;
        failAll(why);
        ParkerThread s = (ParkerThread) SPARE.getAndSet(this, null);
        if (s != null) LockSupport.unpark(s);
        left.countDown();
        return s != null;
    }

    /**
     * One turn of the loop, up to the wait: takes in registrations and removals, completes every
     * reached waiter, queries the ports that are due, and says how to wait next. The loop performs
     * the wait; jcstress runs this same method synchronously against a concurrent registrar and
     * device. Parker thread only.
     *
     * @return {@link #IDLE} (no waiters: sleep until a registration), {@link #SLEEP} (OS sleep to
     *     {@code sleepAt}), {@link #PARK} (bounded park on {@code snapshot} for {@code parkBound},
     *     spinning {@code parkSpin}) or {@link #AGAIN} (the last waiter settled: turn again)
     */
    int step(boolean afterSleep) {
        // Snapshot before drain: a snapshot that saw a store also sees every registration made
        // before that store (release → acquire), so the scan below, which reads the snapshot,
        // completes it. Any store after the snapshot makes the park return at once. Snapshotting
        // after the scan (as this loop once did) could park on a word a drained waiter had already
        // reached, until the bound: jcstress StoreAfterRegistrationStress.
        for (int i = 0; i < snapshot.length; i++) snapshot[i] = line.word(Slot.of(i));
        drain();
        if (waiting == 0) return IDLE;
        long now = clock.nanos();
        scan(now, afterSleep);
        backstop(now);
        if (waiting == 0) return AGAIN;
        GpuFuture<?> first = earliestHead(); // waiting > 0: a slot has a head
        long wakeAt = first.wakeAtNanos;
        long nextBackstop = nextBackstop();
        now = clock.nanos();
        // The margin is there for the OS's lateness; when the measured lateness outgrows it, wake
        // earlier by the excess.
        long sleepTo = wakeAt - Math.max(0, oversleep.allowanceNanos() - marginNanos);
        if (sleepTo - now > 0) {
            sleepAt = Math.min(sleepTo, nextBackstop);
            return SLEEP;
        }
        long bound = Math.min(plan.parkNanos(), Math.max(1, nextBackstop - now));
        parkBound = bound;
        parkSpin = Math.max(0, Math.min(bound, wakeAt + Math.max(spinWindowNanos, first.spreadNanos) - now));
        return PARK;
    }

    /** OS sleep to {@code at} (forever for MAX_VALUE), woken early by a registration or close. */
    private void sleepUntil(ParkerThread me, long at) {
        Sleeper deadlineSleeper = me.deadlineSleeper;
        if (!announceSleep()) return;
        counters.slept();
        if (at == Long.MAX_VALUE) {
            LockSupport.park(this);
        } else if (deadlineSleeper != null) {
            // An io_uring timeout: exact to the ns, but a registration cannot cut it short; the
            // deadline is at most max_sleep or the next backstop away.
            try {
                deadlineSleeper.sleepUntil(at);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            long left = at - clock.nanos();
            if (left > 0) LockSupport.parkNanos(this, left);
        }
        if (at != Long.MAX_VALUE) afterTimedSleep(at, clock.nanos());
        SLEEPING.setVolatile(this, false);
    }

    /**
     * Books a timed sleep that was asked to end at {@code askedAt} and ended at {@code wokeAt}:
     * later than the allowance means the OS, not the work, made this wake late (see
     * {@link #observe}). Parker loop only; tests call it to stand for a sleep.
     */
    void afterTimedSleep(long askedAt, long wokeAt) {
        osLate = wokeAt - askedAt > oversleep.allowanceNanos();
        oversleep.sample(askedAt, wokeAt);
    }

    /**
     * The parker's half of the sleep handshake: (a) set {@code sleeping}, (b) re-check the
     * mailboxes. Returns {@code true} when the parker may park; {@code false} (flag cleared again)
     * when something arrived, so the loop turns instead. Parker thread only.
     */
    boolean announceSleep() {
        SLEEPING.setVolatile(this, true);
        if (!inbox.isEmpty() || !removals.isEmpty() || closing != null) {
            SLEEPING.setVolatile(this, false);
            return false;
        }
        return true;
    }

    /** The word of {@code slot} in the snapshot the next {@link #PARK} compares against. */
    long parkedOn(Slot slot) { return snapshot[slot.index()]; }

    /** Whether the parker is announced asleep and no wake has claimed it yet (the wake CAS clears it). */
    boolean isSleeping() { return sleeping; }

    private void drain() {
        GpuFuture<?> f;
        while ((f = inbox.poll()) != null) {
            if (f.rawState() != GpuFuture.PENDING) {
                counters.deregistered();
                continue;
            }
            int s = f.descriptor().slot().index();
            if (slots[s].isEmpty()) lastQuery[s] = clock.nanos();
            slots[s].add(f);
            waiting++;
        }
        while ((f = removals.poll()) != null) {
            if (slots[f.descriptor().slot().index()].remove(f)) {
                waiting--;
                counters.deregistered();
            }
        }
    }

    /** Completes every future the snapshot shows reached, lowest target first, in each busy slot. */
    private void scan(long now, boolean afterSleep) {
        for (int s = 0; s < slots.length; s++) {
            TreeSet<GpuFuture<?>> set = slots[s];
            if (set.isEmpty()) continue;
            long word = snapshot[s];
            GpuFuture<?> head;
            while ((head = set.isEmpty() ? null : set.first()) != null
                    && (MemoryDescriptor.reached(word, head.descriptor().target()) || head.rawState() != GpuFuture.PENDING)) {
                set.pollFirst();
                waiting--;
                counters.deregistered();
                if (head.signal()) {
                    counters.woke();
                    observe(head, now, afterSleep);
                }
            }
        }
    }

    private void observe(GpuFuture<?> f, long now, boolean afterSleep) {
        if (deadline.isEmpty() || f.pointKey == null) return;
        // A late wake censors the residual (the estimator halves on it). When the OS overslept past
        // its allowance, the store may well have come after the planned wake: that says nothing
        // about the work, so it is not observed (a later exact wait still lowers the prediction).
        if (afterSleep && osLate) return;
        long residual = Math.max(0, now - f.startNanos);
        Outcome o = afterSleep ? new Outcome.Late(residual) : new Outcome.Exact(residual);
        points.observe(f.pointKey, deadline.get(), o);
    }

    /** Queries each busy slot's head at least every backstop: the port is the error authority. */
    private void backstop(long now) {
        for (int s = 0; s < slots.length; s++) {
            TreeSet<GpuFuture<?>> set = slots[s];
            if (set.isEmpty() || now - lastQuery[s] < plan.backstopNanos()) continue;
            lastQuery[s] = now;
            GpuFuture<?> head;
            while ((head = set.isEmpty() ? null : set.first()) != null) {
                counters.queried();
                boolean done;
                try {
                    done = head.port().query();
                } catch (ReactorException e) {
                    failSlot(s, e);
                    break;
                } catch (RuntimeException e) {
                    failSlot(s, new ReactorException(ErrorCode.Backend, e, "port", "query", -1, e.getClass().getSimpleName(), e.getMessage()));
                    break;
                }
                if (!done) break;
                set.pollFirst();
                waiting--;
                counters.deregistered();
                boolean neverWritten = !head.descriptor().isComplete();
                if (head.signal()) {
                    counters.woke();
                    // Only the one who completed the wait warns (a platform joiner may race us to it).
                    if (neverWritten) warnings.accept(Warning.of(ErrorCode.WordNeverWritten, head.descriptor()));
                }
            }
        }
    }

    private void failSlot(int s, ReactorException e) {
        TreeSet<GpuFuture<?>> set = slots[s];
        for (GpuFuture<?> f : set) {
            f.fail(e);
            counters.deregistered();
        }
        waiting -= set.size();
        set.clear();
    }

    private void failAll(ReactorException why) {
        for (int s = 0; s < slots.length; s++) failSlot(s, why);
        GpuFuture<?> f;
        while ((f = inbox.poll()) != null) {
            f.fail(why);
            counters.deregistered();
        }
        removals.clear();
        waiting = 0;
    }

    /** The slot head that wants the parker awake first (nanoTime order), or null with no waiters. */
    private GpuFuture<?> earliestHead() {
        GpuFuture<?> first = null;
        for (TreeSet<GpuFuture<?>> set : slots) {
            if (!set.isEmpty() && (first == null || set.first().wakeAtNanos - first.wakeAtNanos < 0)) first = set.first();
        }
        return first;
    }

    private long nextBackstop() {
        long min = Long.MAX_VALUE;
        for (int s = 0; s < slots.length; s++) {
            if (!slots[s].isEmpty()) min = Math.min(min, lastQuery[s] + plan.backstopNanos());
        }
        return min;
    }

    /** Registrations held now (parker-side view, for tests and statistics). */
    List<Integer> slotSizes() {
        List<Integer> out = new ArrayList<>();
        for (TreeSet<GpuFuture<?>> s : slots) out.add(s.size());
        return out;
    }
}
