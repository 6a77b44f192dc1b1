package dev.gpureactor.loom;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
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
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one platform thread that waits on its {@link CompletionLine}s (one, or a group: see
 * {@code GpuReactor.Builder#linesPerParker}) for every future of their slots, and unparks exactly
 * the waiters whose words reached their targets.
 *
 * <p><b>Several lines.</b> The parker keeps one {@link LineWatch} per line that had a registration
 * (the first line's is made with it), all owned by the loop's owner. Every registration, removal and
 * line close goes through the one inbox, removals, line-close notices and {@code sleeping} of the
 * parker, so each handshake below holds unchanged for every line; the drain routes each registration
 * to its line's watch. One turn snapshots every watch (acquire) before the drain, runs each watch's
 * turn and combines their answers ({@link #either}). A watch made by this drain has no snapshot from
 * before it, so the turn answers {@link Turn.Again}: the next turn snapshots it first. A watch whose
 * line closed is failed with {@link ErrorCode#LineClosed} and dropped, alone: the other lines go on.
 *
 * <p><b>Turn and runner.</b> This class is the runner: the cross-thread handshakes below, each
 * proven by jcstress, and a loop that performs what each turn decides. The turn itself (the slot
 * sets, the snapshot scan, the backstop queries, the estimator's observations, the decision how to
 * wait) is {@link LineWatch}, single-threaded and pure, answering with a {@link Turn}: with no
 * waiters block in the OS ({@link Turn.Idle}); sleep in the OS to the earliest predicted completion
 * from the {@link PointTable} ({@link Turn.Sleep}); else a bounded park on the line
 * ({@link Turn.Park}, bound = min(park, next backstop)). See docs/PARKER.md.
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
 * <p><b>A park does not watch every line.</b> A store ends a park only on a line the park arms: a
 * line with no watch yet (its first registration is in the inbox) is not, nor, under a hardware
 * monitor, any line but the busy one. So before a park the parker publishes the lines it arms
 * ({@code armed}, volatile), then sets {@code parking} (volatile), then re-checks the inbox; a
 * registrar offers and then reads {@code parking} and {@code armed}, and if its line is not armed it
 * CASes {@code parking} clear and unparks the parker (which ends a fallback park; a hardware park
 * ends at its bound). Either the parker's re-check sees the offer, or the registrar sees the park
 * and its armed lines ({@code UnarmedLineStress}).
 *
 * <p><b>Ownership.</b> The watch (the per-slot sets) is touched by the loop's thread only (one at a time: see
 * hosting below; each hand-over is a volatile write read by the next owner); other threads talk to it
 * through {@code inbox}, {@code removals} and {@code sleeping}. A future's state moves by CAS, so a
 * future the parker completes and one a caller cancels cannot both win.
 *
 * <p><b>Failure.</b> A closed line's {@link ErrorCode#LineClosed} fails and drops that line's watch.
 * Any other exception in the loop fails the current waiters (of every line) with
 * {@link ErrorCode#ParkerDied} and the loop goes on; an {@link Error} does the same and ends the
 * thread, and the reactor gives each of its lines a parker again on the line's next registration.
 *
 * <p><b>A line closes.</b> {@link #closeLine} posts a notice and wakes the parker; the drain fails
 * and drops that line's watch and acknowledges. A registration on a closed line is routed into a
 * watch like any other and failed with it at the next turn's snapshot (the line reads as closed),
 * so one that races the close is never stranded ({@code LineCloseRegisterStress}); the parker
 * leaves only when closed ({@link #close}: the reactor does that when its last line closes).
 *
 * <p><b>Hosting (the locality-first wake).</b> With a carrier pool to host for, a turn keeps the
 * first virtual thread it wakes ({@link ParkerThread#capture}) and, when no watched line has
 * anything pending, runs it on this thread, where the store was seen, instead of waking a carrier asleep in
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
 * that left ({@code RegisterLeaveStress}). {@link #isLive()} is false from then on, and the
 * reactor replaces the parker.
 *
 * <p><b>When speed pays.</b> Each pass asks the carriers whether they have a backlog
 * ({@link CarrierPool#backlogged}; on the JDK's scheduler never). With one, a thread woken early would
 * only queue, so the turn neither wakes early nor spins ({@link LineWatch#decide}) and this thread
 * does not host: its core is the carriers'. Its CPU time is booked per parker ({@link #cpuNanos}),
 * whatever number of lines it watches.
 */
final class LineParker implements Runnable {
    private static final VarHandle SLEEPING, HOSTING, SPARE, PARKING;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SLEEPING = l.findVarHandle(LineParker.class, "sleeping", boolean.class);
            HOSTING = l.findVarHandle(LineParker.class, "hosting", Object.class);
            SPARE = l.findVarHandle(LineParker.class, "spare", ParkerThread.class);
            PARKING = l.findVarHandle(LineParker.class, "parking", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code hosting} once a registrar or close took the loop from a hosting thread. */
    private static final Object RELIEVED = new Object();

    /** The line the parker was made for: it names the parker and its threads. */
    private final CompletionLine first;
    /** The parker's name, for its threads and events: its first line's. */
    private final String name;
    private final SnapshotPark park;
    private final WaitPlan.FlagWait plan;
    private final PointTable<Object> points;
    private final long spinWindowNanos;
    private final Consumer<Warning> warnings;
    private final ReactorCounters counters;
    /** Where deadline sleeps go instead of parkNanos (an io_uring timeout); null for parkNanos. One per parker thread. */
    private final Supplier<Sleeper> deadlineSleeperFactory;
    /** The carriers whose woken virtual threads this parker may run itself; null: it never hosts. */
    private final CarrierPool hostPool;
    /** The carriers the woken virtual threads run on, asked for a backlog; null on the JDK's scheduler (never backlogged). */
    private final CarrierPool carriers;
    /**
     * The waits and the turn, one watch per line that had a registration: touched by the loop's
     * owner only. Ownership moves with the loop: each hand-over (a relief's volatile {@code handed}
     * or {@link Thread#start}) follows the old owner's last write to it, and the new owner reads
     * {@code handed} before its first.
     */
    private final ArrayList<LineWatch> watches = new ArrayList<>();
    /** An immutable copy of {@link #watches}, remade when one is made or dropped (loop's owner only). */
    private List<LineWatch> allWatches = List.of();
    private final Clock clock;

    private final ConcurrentLinkedQueue<LineWait> inbox = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<LineWait> removals = new ConcurrentLinkedQueue<>();
    /** Lines closed while this parker goes on: the drain fails and drops their watches. */
    private final ConcurrentLinkedQueue<LineClose> lineCloses = new ConcurrentLinkedQueue<>();
    private final CountDownLatch left = new CountDownLatch(1);
    /** CPU time of this parker's threads, booked by each at its sleeps (any thread adds; readers sum). */
    private final LongAdder cpuNanos = new LongAdder();

    private volatile boolean sleeping;
    /**
     * Set (volatile) by the loop's owner just before a park on the lines in {@code armed}, cleared
     * after it; a registrar on a line not armed CASes it clear and unparks (see the class comment).
     */
    private volatile boolean parking;
    /**
     * The watches the current or next park arms, written (volatile) before {@code parking} is set:
     * a registrar that reads {@code parking} set and then this sees the park's lines or a later
     * park's. Immutable lists; their watches' {@code line} is final.
     */
    private volatile List<LineWatch> armed = List.of();
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

    /**
     * Fault injection for tests only: run at the top of every pass of the loop, inside its error
     * handling (a test sets it to throw an {@link Error} to kill this parker). Null in production.
     */
    volatile Runnable passHook;

    /**
     * Negative control only (jcstress {@code RegisterLeaveNegativeControl}): when set, a registrar
     * does not read {@code gone} after its offer, the one line that pairs it with {@link #leave}.
     * Set before any thread uses this parker; never in production.
     */
    boolean controlSkipsGone;

    /**
     * Negative control only (jcstress {@code UnarmedLineNegativeControl}): when set, a registrar
     * does not read {@code parking} after its offer, the one line that pairs it with a park that
     * does not arm its line. Set before any thread uses this parker; never in production.
     */
    boolean controlSkipsParking;

    /**
     * Negative control only (jcstress {@code LineCloseRegisterNegativeControl}): when set, dropping a
     * closed line's watch does not fail its waits, the one line that reaches a registration that made
     * it into the watch before the close. Set before any thread uses this parker; never in production.
     */
    boolean controlDropsWithoutFailing;

    /** A line closed under a parker that goes on: {@code done} counts down once its watch is dropped. */
    private record LineClose(CompletionLine line, ReactorException why, CountDownLatch done) { }

    LineParker(CompletionLine line, SnapshotPark park, WaitPlan.FlagWait plan, PointTable<Object> points, Clock clock,
               Consumer<Warning> warnings, ReactorCounters counters, long spinWindowNanos,
               Supplier<Sleeper> deadlineSleeperFactory, CarrierPool carriers, boolean hosting) {
        this.deadlineSleeperFactory = deadlineSleeperFactory;
        this.carriers = carriers;
        this.hostPool = hosting ? carriers : null;
        this.first = line;
        this.name = line.name();
        this.park = park;
        this.plan = plan;
        this.points = points;
        this.spinWindowNanos = spinWindowNanos;
        this.clock = clock;
        this.warnings = warnings;
        this.counters = counters;
        watch(line); // before any registration: the first turn snapshots it before its drain
    }

    void start() {
        Thread t = new ParkerThread(this, "gar-parker-" + name);
        thread = t;
        t.start();
    }

    /** The parker's name (its first line's); its threads are {@code gar-parker-<name>}. */
    String name() { return name; }

    /** The line the parker was made for, its first. */
    CompletionLine line() { return first; }

    /** Whether the thread has left its loop (closed, line closed, or died of an {@link Error}). */
    boolean isDead() { return gone != null; }

    boolean isClosing() { return closing != null; }

    /**
     * The whole registration protocol, steps (1)–(3): register, then re-load the word with a
     * volatile load and complete {@code f} here if it is already reached.
     *
     * @return whether the re-check found the word reached
     */
    boolean registerAndRecheck(LineWait f) {
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
    void register(LineWait f) {
        counters.registered();
        offer(f);
        if (!controlSkipsParking) wakeUnarmed(f.descriptor().line()); // after the offer: the Dekker pair with announcePark
        if (claimRelief()) relieve();
        ReactorException why = controlSkipsGone ? null : gone; // after the offer: the Dekker pair with leave
        if (why == null) why = closing;
        if (why != null && inbox.remove(f)) { // the parker may have left already: fail it here, once
            f.fail(why);
            counters.deregistered();
        }
    }

    /** Steps (1) and (2) of the registration protocol: offer {@code f}, then wake the parker if it sleeps. */
    void offer(LineWait f) {
        inbox.offer(f);
        wake();
    }

    /** A cancelled, timed-out or interrupted future: drop it from its slot. */
    void remove(LineWait f) {
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

    /**
     * The registrar's half of the park handshake: the parker parks on lines that do not include
     * {@code line}, so no store of this registration's would end the park: end it. Read after the
     * offer; see {@link #announcePark}.
     */
    private void wakeUnarmed(CompletionLine line) {
        if (!(boolean) PARKING.getVolatile(this)) return;
        List<LineWatch> a = armed;
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).line() == line) return; // a store on it ends the park
        }
        if (PARKING.compareAndSet(this, true, false)) LockSupport.unpark(thread);
    }

    /**
     * A line of this parker closed while the parker goes on (it has other lines): its waits fail
     * with {@code why} and its watch is dropped. Waits (bounded) until the parker did so, unless it
     * is the parker's own thread or the parker has no thread or has left (its leaving failed them).
     */
    void closeLine(CompletionLine line, ReactorException why) {
        LineClose c = new LineClose(line, why, new CountDownLatch(1));
        lineCloses.offer(c);
        if (claimRelief()) relieve(); // a thread running a guest sees the notice only once the guest parks
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
                    warnings.accept(Warning.of(ErrorCode.ExecutorFallback, "deadline sleeps on " + name, e.getMessage(), "parkNanos"));
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
            why = new ReactorException(ErrorCode.ParkerDied, e, name, e.toString());
            throw e;
        } finally {
            sampleCpu(me);
            if (me.deadlineSleeper instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception e) {
                    warnings.accept(Warning.of(ErrorCode.Backend, "parker", "close deadline sleeper", -1, e.getClass().getSimpleName(), e.getMessage()));
                }
            }
            if (!quiet) leave(why != null ? why : new ReactorException(ErrorCode.ParkerDied, name, "its loop ended"));
        }
    }

    /**
     * Runs until closed or an {@link Error}; returns why it left, or null when
     * a registrar or close relieved this thread while it ran a guest (the loop is another thread's).
     */
    private ReactorException loop(ParkerThread me) {
        boolean afterSleep = false;
        boolean wasBacklogged = false; // JFR: the backlog event is sampled where this turns true
        while (true) {
            ReactorException c = closing;
            if (c != null) {
                failAll(c);
                return c;
            }
            // Nothing in the library interrupts a parker (close sets closing and unparks), so an
            // interrupt is foreign; honoured it would fail every wait of the parker, left set it makes
            // every park and sleep return at once (a hot spin). It is cleared, deliberately ignored.
            Thread.interrupted();
            try {
                Runnable hook = passHook;
                if (hook != null) hook.run();
                // With a backlog the parker neither spins nor hosts: its core is the carriers'.
                boolean backlogged = carriers != null && carriers.backlogged();
                if (backlogged && !wasBacklogged) BacklogEvent.emit(name, carriers); // sampled at the flip
                wasBacklogged = backlogged;
                if (hostPool != null && !backlogged) me.openCapture(hostPool);
                Turn next;
                try {
                    next = step(afterSleep, backlogged);
                } catch (Throwable t) {
                    Runnable kept = me.closeCapture();
                    if (kept != null) hostPool.execute(kept); // a woken virtual thread is never dropped
                    throw t;
                }
                Runnable guest = me.closeCapture();
                if (guest != null && !host(me, guest)) return null;
                afterSleep = switch (next) {
                    case Turn.Idle _ -> sleepUntil(me, Long.MAX_VALUE);
                    case Turn.Sleep s -> sleepUntil(me, s.at());
                    case Turn.Park p -> {
                        counters.parked();
                        bookCpu(me.cpuSinceLastSample(CPU_SAMPLE_GAP_NANOS)); // a parker that never sleeps still shows
                        List<LineWatch> on = armFor();
                        if (announcePark(on)) park.park(on, p.bound(), p.spin());
                        PARKING.setVolatile(this, false);
                        yield false;
                    }
                    case Turn.Again _ -> false; // everything settled; look again at once
                };
            } catch (RuntimeException | Error e) {
                ReactorException why = failed(e);
                if (why != null) return why;
            }
        }
    }

    /**
     * The loop's error handling: a closed line's exception fails and drops that line's watch, and
     * the loop goes on (returns null); any other exception fails the current waiters with
     * {@link ErrorCode#ParkerDied} and the loop goes on (returns null); an {@link Error} does the
     * same and ends the thread (rethrown).
     */
    private ReactorException failed(Throwable e) {
        if (e instanceof ReactorException r && r.code() == ErrorCode.LineClosed && dropClosedLines()) return null;
        String what = e instanceof ReactorException r ? r.getMessage() : e.toString();
        failAll(new ReactorException(ErrorCode.ParkerDied, e, name, what));
        if (e instanceof Error err) {
            warnings.accept(Warning.of(ErrorCode.ParkerDied, name, e + " (thread ended; a new parker starts on the next registration)"));
            counters.parkerDied();
            throw err;
        }
        warnings.accept(Warning.of(ErrorCode.ParkerDied, name, what));
        return null;
    }

    /**
     * The locality-first wake: a virtual thread this turn woke runs here, on the thread that saw
     * its store, instead of waiting for a carrier to wake. Only when no watched line has anything
     * pending: while the guest runs nobody watches the lines, so a registration or close that comes
     * meanwhile relieves this thread: the thread standing by takes the loop. It hosts only while
     * one stands by, so relief never waits for a thread to be made. Returns whether this thread
     * still owns the loop.
     */
    private boolean host(ParkerThread me, Runnable guest) {
        if (waiting() != 0 || spare == null) {
            hostPool.execute(guest); // waits to watch, or no thread to relieve it: the carriers run it
            return true;
        }
        if (!announceHosting(me)) return handBack(me, guest); // a registration or close came first
        counters.hosted();
        try {
            guest.run();
        } catch (Throwable t) {
            me.getUncaughtExceptionHandler().uncaughtException(me, t);
        }
        return endHosting(me);
    }

    /**
     * Declines to host after announcing it: end the hosting first, then give the guest to the
     * carriers. Once a relief claimed the loop, its waits are another thread's: nothing from here may
     * reach the loop's error handling (which fails every wait it holds), so should the carriers
     * refuse the guest, this thread, no longer the loop's, runs it itself. Returns whether this
     * thread still owns the loop.
     */
    boolean handBack(ParkerThread me, Runnable guest) {
        boolean mine = endHosting(me);
        try {
            hostPool.execute(guest);
        } catch (RuntimeException e) {
            if (mine) throw e; // still the owner: the loop's error handling is for it
            try {
                guest.run(); // a woken virtual thread is never dropped
            } catch (Throwable t) {
                me.getUncaughtExceptionHandler().uncaughtException(me, t);
            }
        }
        return mine;
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
        return inbox.isEmpty() && lineCloses.isEmpty() && closing == null;
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
        ReliefEvent.emit(name, s != null);
        if (s == null) {
            s = new ParkerThread(this, "gar-parker-" + name);
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
        ParkerThread s = new ParkerThread(this, "gar-parker-" + name);
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
        sampleCpu(me);
        while (!me.handed) {
            if (gone != null) {
                SPARE.compareAndSet(this, me, null);
                return me.handed;
            }
            LockSupport.park(this);
            Thread.interrupted(); // foreign, as in the loop: left set, this wait would spin
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
        LineClose c;
        while ((c = lineCloses.poll()) != null) c.done().countDown(); // its waits failed with the rest
        ParkerThread s = (ParkerThread) SPARE.getAndSet(this, null);
        if (s != null) LockSupport.unpark(s);
        left.countDown();
        return s != null;
    }

    /**
     * One turn of the loop, up to the wait: snapshot every watched line, take in line closes,
     * registrations and removals, then each watch's turn (complete every reached waiter, query the
     * ports that are due, decide how to wait), combined ({@link #either}). The loop performs the
     * wait; jcstress runs this same method synchronously against a concurrent registrar and device.
     * Loop's owner only.
     */
    Turn step(boolean afterSleep, boolean backlogged) {
        for (int i = 0; i < watches.size(); ) {
            if (snapshotOrDrop(watches.get(i))) i++; // before the drain: see LineWatch.snapshot
        }
        int old = drain();
        Turn next = Turn.IDLE;
        long now = clock.nanos();
        for (int i = 0; i < old; i++) next = either(next, watches.get(i).next(afterSleep, backlogged), now);
        return old < watches.size() ? Turn.AGAIN : next; // a watch made by the drain: snapshot it first
    }

    /**
     * Two lines' answers as one: {@code Again} beats {@code Park} beats {@code Sleep} beats
     * {@code Idle}; two parks park to the earlier bound, spinning as much of it as the most eager
     * asks; two sleeps end at the earlier; a park with a sleep ends no later than the sleep would.
     * Pure.
     */
    static Turn either(Turn a, Turn b, long now) {
        return switch (a) {
            case Turn.Again x -> x;
            case Turn.Idle _ -> b;
            case Turn.Sleep s -> switch (b) {
                case Turn.Again x -> x;
                case Turn.Idle _ -> s;
                case Turn.Sleep t -> t.at() - s.at() < 0 ? t : s;
                case Turn.Park p -> parkUntil(p, s.at(), now);
            };
            case Turn.Park p -> switch (b) {
                case Turn.Again x -> x;
                case Turn.Idle _ -> p;
                case Turn.Sleep t -> parkUntil(p, t.at(), now);
                case Turn.Park q -> {
                    long bound = Math.min(p.bound(), q.bound());
                    yield new Turn.Park(bound, Math.min(bound, Math.max(p.spin(), q.spin())));
                }
            };
        };
    }

    /** {@code p}, bounded to end by {@code at} (another line's sleep). */
    private static Turn.Park parkUntil(Turn.Park p, long at, long now) {
        long bound = Math.min(p.bound(), Math.max(1, at - now));
        return bound == p.bound() ? p : new Turn.Park(bound, Math.min(bound, p.spin()));
    }

    /** {@link #step(boolean, boolean)} with the carriers keeping up (as jcstress runs it). */
    Turn step(boolean afterSleep) { return step(afterSleep, false); }

    /**
     * OS sleep to {@code at} (forever for MAX_VALUE), woken early by a registration or close.
     * Returns whether it was a deadline sleep (the next turn's completions are then {@code Late}).
     */
    private boolean sleepUntil(ParkerThread me, long at) {
        boolean timed = at != Long.MAX_VALUE;
        Sleeper deadlineSleeper = me.deadlineSleeper;
        if (!announceSleep()) return timed;
        counters.slept();
        sampleCpu(me);
        if (at == Long.MAX_VALUE) {
            LockSupport.park(this);
        } else if (deadlineSleeper != null) {
            // An io_uring timeout: exact to the ns, but a registration cannot cut it short; the
            // deadline is at most max_sleep or the next backstop away.
            try {
                deadlineSleeper.sleepUntil(at);
            } catch (InterruptedException ignored) {
                // foreign: ignored, as the loop ignores it (see loop)
            }
        } else {
            long left = at - clock.nanos();
            if (left > 0) LockSupport.parkNanos(this, left);
        }
        if (timed) {
            long woke = clock.nanos();
            for (int i = 0; i < watches.size(); i++) watches.get(i).afterTimedSleep(at, woke);
            ParkerLateEvent.check(name, at, woke, waiting());
        }
        SLEEPING.setVolatile(this, false);
        return timed;
    }

    /** Books {@code me}'s CPU since its last sample to this parker and the reactor's counters (at a sleep, standing by, leaving). */
    private void sampleCpu(ParkerThread me) { bookCpu(me.cpuSinceLastSample()); }

    private void bookCpu(long d) {
        if (d == 0) return;
        cpuNanos.add(d);
        counters.parkerCpu(d);
    }

    /** Between sleeps, a parker that only parks samples its CPU at most this often (a sample is a clock_gettime). */
    private static final long CPU_SAMPLE_GAP_NANOS = 1_000_000;

    /** CPU time this parker's threads used so far, for all its lines (see {@link RunStats#parkerCpuNanos}). */
    long cpuNanos() { return cpuNanos.sum(); }

    /**
     * The parker's half of the sleep handshake: (a) set {@code sleeping}, (b) re-check the
     * mailboxes. Returns {@code true} when the parker may park; {@code false} (flag cleared again)
     * when something arrived, so the loop turns instead. Parker thread only.
     */
    boolean announceSleep() {
        SLEEPING.setVolatile(this, true);
        if (!inbox.isEmpty() || !removals.isEmpty() || !lineCloses.isEmpty() || closing != null) {
            SLEEPING.setVolatile(this, false);
            return false;
        }
        return true;
    }

    /**
     * The parker's half of the park handshake: publish the watches the park arms, set
     * {@code parking}, then re-check the inbox. Returns whether the parker may park; when not (a
     * registration came), it turns again. The caller clears {@code parking} after the park either way.
     */
    boolean announcePark(List<LineWatch> on) {
        armed = on;
        PARKING.setVolatile(this, true);
        return inbox.isEmpty() && lineCloses.isEmpty();
    }

    /** The watches the next park arms: all of them, or the one busy watch where the park arms one line. */
    List<LineWatch> armFor() {
        if (!park.oneLine() || watches.size() == 1) return allWatches;
        LineWatch busy = null;
        for (int i = 0; i < watches.size(); i++) {
            LineWatch w = watches.get(i);
            if (w.waiting() == 0) continue;
            if (busy != null) return allWatches; // two busy lines: a monitor cannot arm both
            busy = w;
        }
        return busy == null ? allWatches : List.of(busy);
    }

    /** Whether the parker is announced parking and no registrar has ended the park (tests). */
    boolean isParking() { return parking; }

    /** Whether a store on {@code line} since the last turn's snapshot would end a park on {@code armed} (tests). */
    boolean armedParkWouldEnd() { return SnapshotPark.differs(armed); }

    /** The word of {@code slot} of the first line in the snapshot the next {@link Turn.Park} compares against. */
    long parkedOn(Slot slot) { return parkedOn(first, slot); }

    /** The word of {@code slot} of {@code line} in the snapshot the next park compares against; -1 without a watch. */
    long parkedOn(CompletionLine line, Slot slot) {
        LineWatch w = watchOf(line);
        return w == null ? -1 : w.parkedOn(slot);
    }

    /** Whether the parker is announced asleep and no wake has claimed it yet (the wake CAS clears it). */
    boolean isSleeping() { return sleeping; }

    /** Books a timed sleep asked to end at {@code askedAt} that ended at {@code wokeAt} (tests stand it for a sleep). */
    void afterTimedSleep(long askedAt, long wokeAt) {
        for (int i = 0; i < watches.size(); i++) watches.get(i).afterTimedSleep(askedAt, wokeAt);
    }

    /**
     * Takes in line closes, then registrations (each to its line's watch, made on the line's first),
     * then removals. Returns how many watches there were before the registrations: those after are new.
     */
    private int drain() {
        LineClose c;
        while ((c = lineCloses.poll()) != null) {
            LineWatch w = watchOf(c.line());
            if (w != null) drop(w, c.why());
            c.done().countDown();
        }
        int old = watches.size();
        LineWait f;
        while ((f = inbox.poll()) != null) watch(f.descriptor().line()).add(f);
        while ((f = removals.poll()) != null) {
            LineWatch w = watchOf(f.descriptor().line());
            if (w != null) w.remove(f); // none: the line closed, and its waits failed
        }
        return old;
    }

    /**
     * Snapshots {@code w}'s line; a closed line instead fails and drops the watch (a registration
     * routed into it after the close fails here). Returns whether the watch stays.
     */
    private boolean snapshotOrDrop(LineWatch w) {
        CompletionLine line = w.line();
        if (!line.isClosed()) {
            try {
                w.snapshot();
                return true;
            } catch (ReactorException e) {
                if (e.code() != ErrorCode.LineClosed) throw e;
            }
        }
        drop(w, new ReactorException(ErrorCode.LineClosed, line.name(), "wait"));
        return false;
    }

    /** Fails and drops the watch of every closed line; returns whether there was one. */
    private boolean dropClosedLines() {
        boolean any = false;
        for (int i = 0; i < watches.size(); ) {
            LineWatch w = watches.get(i);
            if (!w.line().isClosed()) {
                i++;
                continue;
            }
            drop(w, new ReactorException(ErrorCode.LineClosed, w.line().name(), "wait"));
            any = true;
        }
        return any;
    }

    /** Fails {@code w}'s waits with {@code why} and stops watching its line. */
    private void drop(LineWatch w, ReactorException why) {
        if (!controlDropsWithoutFailing) w.failAll(why); // the one line the negative control removes
        watches.remove(w);
        allWatches = List.copyOf(watches);
    }

    /** The watch of {@code line}, made now if it has none (loop's owner, or the constructor). */
    private LineWatch watch(CompletionLine line) {
        LineWatch w = watchOf(line);
        if (w != null) return w;
        w = new LineWatch(line, plan, points, clock, warnings, counters, spinWindowNanos);
        watches.add(w);
        allWatches = List.copyOf(watches);
        return w;
    }

    /** The watch of {@code line}, or null: a linear search, a parker watches a few lines. */
    private LineWatch watchOf(CompletionLine line) {
        for (int i = 0; i < watches.size(); i++) {
            if (watches.get(i).line() == line) return watches.get(i);
        }
        return null;
    }

    /** Waits held on all the parker's lines (loop's owner). */
    private int waiting() {
        int n = 0;
        for (int i = 0; i < watches.size(); i++) n += watches.get(i).waiting();
        return n;
    }

    /** Fails the waits held and every registration in the inbox (loop's owner only). */
    private void failAll(ReactorException why) {
        for (int i = 0; i < watches.size(); i++) watches.get(i).failAll(why);
        LineWait f;
        while ((f = inbox.poll()) != null) {
            f.fail(why);
            counters.deregistered();
        }
        removals.clear();
    }

    /** Registrations offered and not yet drained (tests). */
    int inboxSize() { return inbox.size(); }

    /** Withdrawals offered and not yet drained (tests). */
    int removalsSize() { return removals.size(); }

    /** Registrations held now on the first line (parker-side view, for tests and statistics). */
    List<Integer> slotSizes() { return slotSizes(first); }

    /** Registrations held now on {@code line}, per slot; empty without a watch (tests). */
    List<Integer> slotSizes(CompletionLine line) {
        LineWatch w = watchOf(line);
        return w == null ? List.of() : w.slotSizes();
    }

    /** Lines watched now (tests). */
    int watchedLines() { return watches.size(); }
}
