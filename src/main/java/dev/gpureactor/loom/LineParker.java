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
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The runner of one parker: the platform thread that waits on its {@link CompletionLine}s (one, or a
 * group: see {@code GpuReactor.Builder#linesPerParker}) for every future of their slots, and unparks
 * exactly the waiters whose words reached their targets. Whom to complete and how to wait next is the
 * turn's decision ({@link LineGroup}: one {@link LineWatch} per line, pure, on an injected clock); this
 * class performs it and keeps the cross-thread handshakes, each proven by jcstress. See
 * docs/PARKER.md and docs/DESIGN.md.
 */
final class LineParker implements Runnable {
    /*
     * Implementation overview.
     *
     * Threads and ownership. One thread at a time owns the loop: the first ParkerThread, or a
     * standing-by one handed the loop by a relief (hosting, below). The owner alone touches the
     * group (the watches, their slot sets and snapshots) and the plain fields; each hand-over is a
     * volatile write the next owner reads before its first access. Every other thread talks to the
     * loop through three queues and a few volatile fields only:
     *   inbox, removals, lineCloses   registrations, withdrawals, line-close notices (offer: release;
     *                                 the drain's poll: acquire)
     *   sleeping, parking + armed     the owner is about to sleep in the OS / park on these watches
     *   hosting, spare, thread        who runs the loop, who stands by, whom to unpark
     *   closing, gone                 why the parker stops / that it has left
     * A future's state moves by CAS, so a future the parker completes and one a caller cancels cannot
     * both win.
     *
     * The loop (loop()), one pass:
     *   closing set?   fail every wait and the inbox, leave
     *   the carriers backlogged? (asked each pass)   then neither spin nor host; else open a capture
     *   step():        group.snapshot() (acquire, before the drain); drain() the three queues into the
     *                  group; group.next(): the Turn
     *   a woken virtual thread captured?   host it (below) or give it to the carriers
     *   perform the Turn: Idle, Sleep(at) -> sleepUntil (the sleep handshake; a timed sleep's lateness
     *                  is booked to every watch); Park(bound, spin) -> announcePark(group.armFor()),
     *                  then the SnapshotPark; Again -> turn at once
     *   an exception:  failed(): a closed line's LineClosed drops the closed lines' watches alone;
     *                  anything else fails every wait ParkerDied and goes on; an Error also ends the
     *                  thread, and the reactor gives each line a parker again at its next registration.
     *                  Each is counted once in parkersDied (died()). The reactor's warnings sink
     *                  never throws here: the reactor guards it where it takes it in (GuardedSink).
     *
     * Handshakes. Each is a Dekker pair of sequentially consistent accesses: each side writes its
     * own field, then reads the other's, so at least one side sees the other.
     *   registration   registrar: (1) offer to inbox, (2) read sleeping and, if set, CAS it clear and
     *                  unpark, (3) re-load the word (volatile) and complete the future itself if
     *                  reached. Parker: (a) set sleeping, (b) re-check the mailboxes, (c) sleep. And
     *                  each turn snapshots every line (acquire) before its drain, so a snapshot that
     *                  holds a store also holds the registration made before it, and a store after the
     *                  snapshot ends the park that compares against it. RegistrationRecheckStress,
     *                  StoreAfterRegistrationStress, ParkerSleepStress.
     *   unarmed line   a store ends a park only on a line the park arms: not a line whose first
     *                  registration is still in the inbox, nor, under a hardware monitor, any line but
     *                  the busy one. Parker: publish armed, set parking, re-check inbox and notices.
     *                  Registrar: offer, read parking then armed; its line not armed: CAS parking
     *                  clear and unpark (a fallback park ends; a hardware park ends at its bound).
     *                  UnarmedLineStress (UnarmedLineNegativeControl).
     *   line close     closeLine(): offer a notice, relieve a host, wake and unpark, wait (bounded) for
     *                  done. The drain fails and drops that line's watch alone; a registration routed
     *                  after the close makes a watch of the closed line, which the next snapshot fails
     *                  and drops: never stranded. LineCloseRegisterStress (...NegativeControl).
     *   hosting        with a carrier pool to host for, a turn keeps the first virtual thread it wakes
     *                  (ParkerThread.capture) and runs it here, where the store was seen, while a
     *                  thread stands by. When a line still has waits, the owner first hands the loop
     *                  to the thread standing by (handOver: leader/follower, no announcement; the
     *                  volatile handed carries the loop's state) and runs the guest as a relieved
     *                  thread. When no line has a wait it keeps the loop while the guest runs.
     *                  Nothing the host does around its guest throws (runGuest, countHosting), nor
     *                  does a thread as it stands by: the loop's error handling, and leaving, are the
     *                  owner's alone.
     *                  Parker: announce hosting, re-check inbox, notices and closing.
     *                  Registrar or closer: offer, then claimRelief's CAS on hosting, and the winner
     *                  hands the loop to the thread standing by (its volatile handed, or a new thread's
     *                  start). endHosting and claimRelief CAS one field: exactly one owner.
     *                  HostingReliefStress, HostingOwnerStress; the hand-over itself (state, then
     *                  thread, then handed) LoopHandOverStress, and with no announcement a registrar
     *                  never relieves (one hand-over) LoopHandOverReliefStress.
     *   standby        a relieved thread publishes itself in spare, then reads gone; the leaver writes
     *                  gone, then takes spare and unparks it. StandbyLeaveStress.
     *   leaving        however the loop ends, the thread writes gone, then drains the inbox one last
     *                  time, failing what it finds; a registrar offers, then reads gone (and closing)
     *                  and, if set, takes its own entry back and fails it: no registration is stranded
     *                  in the inbox of a parker that left. RegisterLeaveStress
     *                  (RegisterLeaveNegativeControl). isLive() is false from then on, and the reactor
     *                  replaces the parker.
     *
     * When speed pays. With a carrier backlog (CarrierPool.backlogged; on the JDK's scheduler never)
     * a thread woken early would only queue, so the turn neither wakes early nor spins
     * (LineWatch.decide) and this thread does not host: its core is the carriers'. Its CPU time is
     * booked per parker (cpuNanos), whatever number of lines it watches.
     */

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
    private final Consumer<Warning> warnings;
    private final ReactorCounters counters;
    /** Where deadline sleeps go instead of parkNanos (an io_uring timeout); null for parkNanos. One per parker thread. */
    private final Supplier<Sleeper> deadlineSleeperFactory;
    /** The carriers whose woken virtual threads this parker may run itself; null: it never hosts. */
    private final CarrierPool hostPool;
    /** The carriers the woken virtual threads run on, asked for a backlog; null on the JDK's scheduler (never backlogged). */
    private final CarrierPool carriers;
    /**
     * The waits and the turn over every line ({@link LineGroup}): touched by the loop's owner only.
     * Ownership moves with the loop: each hand-over (a relief's volatile {@code handed} or
     * {@link Thread#start}) follows the old owner's last write to it, and the new owner reads
     * {@code handed} before its first.
     */
    final LineGroup group;
    private final Clock clock;

    /**
     * Registrations: any thread offers (release: the wait's fields before it), the loop's owner polls
     * (acquire) in the drain, after the snapshot. A registrar offers before it reads {@code sleeping},
     * {@code parking}, {@code hosting} and {@code gone}: its half of each Dekker pair.
     */
    private final ConcurrentLinkedQueue<LineWait> inbox = new ConcurrentLinkedQueue<>();
    /**
     * Withdrawals (cancel, timeout, interrupt), polled after the inbox (acquire). One that overtakes
     * its registration finds no wait; the registration, drained later, is settled and only counted out.
     */
    private final ConcurrentLinkedQueue<LineWait> removals = new ConcurrentLinkedQueue<>();
    /**
     * Lines closed while this parker goes on: polled (acquire) before the registrations, so a
     * registration drained with the notice lands in the closed line's watch, failed with it, or in a
     * new one the next snapshot fails. Each notice's {@code done} counts down once its watch is dropped.
     */
    private final ConcurrentLinkedQueue<LineClose> lineCloses = new ConcurrentLinkedQueue<>();
    private final CountDownLatch left = new CountDownLatch(1);
    /** CPU time of this parker's threads, booked by each at its sleeps (any thread adds; readers sum). */
    private final LongAdder cpuNanos = new LongAdder();

    /**
     * Set (volatile) by the loop's owner before it re-checks the mailboxes and sleeps in the OS,
     * cleared by it on waking; a waker reads it after its offer and CASes it clear to claim the one
     * unpark. Written before the re-check, read after the offer: one of them sees the other.
     */
    private volatile boolean sleeping;
    /**
     * Set (volatile) by the loop's owner just before a park on the lines in {@code armed}, cleared
     * after it; a registrar on a line not armed CASes it clear and unparks (see the overview).
     */
    private volatile boolean parking;
    /**
     * The watches the current or next park arms, written (volatile) before {@code parking} is set:
     * a registrar that reads {@code parking} set and then this sees the park's lines or a later
     * park's. Immutable lists ({@link LineGroup#armFor}); their watches' {@code line} is final.
     */
    private volatile List<LineWatch> armed = List.of();
    /**
     * The thread that runs the loop now (it changes when a hosting thread is relieved): written
     * before the hand-over ({@code handed} or start), so a waker that saw the new owner's
     * {@code sleeping} or {@code parking} unparks the new owner.
     */
    private volatile Thread thread;
    /**
     * Null while the loop's thread watches; that thread while it runs a guest; {@link #RELIEVED}
     * once a registrar or close took the loop. Only CASes end a hosting or claim it (one owner); the
     * announcement is written before the host's re-check of the mailboxes, read after a registrar's offer.
     */
    private volatile Object hosting;
    /**
     * A relieved thread standing by to take the loop again, or null: published (CAS) before that
     * thread reads {@code gone}; taken (getAndSet) by a relief, or by the leaver after it writes
     * {@code gone}: a leaving parker never strands it.
     */
    private volatile ParkerThread spare;
    /** Set before the first thread starts; relief threads do not count as parkers started. */
    private boolean started;
    /** Whether the standing-by thread was started (loop's thread only; the flag moves with the loop). */
    private boolean spareStarted;
    /**
     * Set once by {@link #close} (volatile) before it unparks: why pending waiters fail. The loop reads
     * it each pass, the sleep and hosting announcements re-check it, a registrar reads it after its offer.
     */
    private volatile ReactorException closing;
    /**
     * Set (volatile) by the thread leaving the loop, before its last drain of the inbox and before it
     * takes {@code spare}: a registrar reads it after its offer, a standing-by thread after it
     * publishes itself, so each either is seen by the leaver or sees it.
     */
    private volatile ReactorException gone;

    /**
     * Fault injection for tests only: run at the top of every pass of the loop, inside its error
     * handling (a test sets it to throw an {@link Error} to kill this parker). Null in production.
     */
    volatile Runnable passHook;

    /**
     * Fault injection for tests only: run on a hosting thread just before it counts the hosting,
     * after a leader/follower hand-over or a hosting announcement (a test sets it to throw an
     * {@link Error}, standing for an OutOfMemoryError there). Null in production.
     */
    volatile Runnable hostHook;

    /**
     * Fault injection for tests only: run by a relieved thread once it is published as standing by,
     * just before it books its CPU (a test sets it to throw an {@link Error}, standing for an
     * OutOfMemoryError there). Null in production.
     */
    volatile Runnable standByHook;

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
     * Negative control only (jcstress {@code LoopHandOverNegativeControl}): when set, a hand-over
     * writes the standing-by thread's {@code handed} before {@code thread}, so the new owner can
     * read {@code handed} and still see the old owner's state. Set before any thread uses this
     * parker; never in production.
     */
    boolean controlHandsFirst;

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
        this.clock = clock;
        this.warnings = warnings;
        this.counters = counters;
        this.group = new LineGroup(line, plan, points, clock, warnings, counters, spinWindowNanos, park.oneLine());
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
        inbox.offer(f); // release: the wait's fields before the drain's poll
        wake(); // after the offer: the Dekker pair with announceSleep
    }

    /** A cancelled, timed-out or interrupted future: drop it from its slot. */
    void remove(LineWait f) {
        removals.offer(f);
        wake(); // after the offer, as for a registration
    }

    /** Stops the parker: every pending waiter fails with {@code why}; waits (bounded) until it has left the line. */
    void close(ReactorException why) {
        closing = why; // volatile: before the unpark; the loop and every announcement re-check it
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
        if (!(boolean) PARKING.getVolatile(this)) return; // SC, after the offer
        List<LineWatch> a = armed; // after parking: the park's lines or a later park's
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).line() == line) return; // a store on it ends the park
        }
        if (PARKING.compareAndSet(this, true, false)) LockSupport.unpark(thread); // the CAS: one unpark per park
    }

    /**
     * A line of this parker closed while the parker goes on (it has other lines): its waits fail
     * with {@code why} and its watch is dropped. Waits (bounded) until the parker did so, unless it
     * is the parker's own thread or the parker has no thread or has left (its leaving failed them).
     */
    void closeLine(CompletionLine line, ReactorException why) {
        LineClose c = new LineClose(line, why, new CountDownLatch(1));
        lineCloses.offer(c); // release: before the hosting, sleeping and gone reads below
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
        // SC read after the caller's offer (the pair with announceSleep); the CAS: one unpark per sleep
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
            if (!quiet) {
                if (why == null) why = new ReactorException(ErrorCode.ParkerDied, name, "its loop ended");
                // The thread's death, whatever ended it (inside the loop or around it): counted once, here.
                if (why.code() == ErrorCode.ParkerDied) died(why.args().get(1) + " (thread ended; a new parker starts on the next registration)");
                leave(why);
            }
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
                        List<LineWatch> on = group.armFor();
                        if (announcePark(on)) park.park(on, p.bound(), p.spin());
                        PARKING.setVolatile(this, false); // the park is over: a registrar need not end it
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
     * {@link ErrorCode#ParkerDied}, is counted and warned, and the loop goes on (returns null); an
     * {@link Error} fails them the same way and ends the thread (rethrown: {@link #run} counts and
     * warns it as the thread's death).
     */
    private ReactorException failed(Throwable e) {
        if (e instanceof ReactorException r && r.code() == ErrorCode.LineClosed && group.dropClosedLines()) return null;
        String what = e instanceof ReactorException r ? r.getMessage() : e.toString();
        failAll(new ReactorException(ErrorCode.ParkerDied, e, name, what));
        if (e instanceof Error err) throw err;
        died(what);
        return null;
    }

    /** A death of this parker's waits (they failed {@link ErrorCode#ParkerDied}): counted in {@code parkersDied}, and warned. */
    private void died(String what) {
        counters.parkerDied();
        warnings.accept(Warning.of(ErrorCode.ParkerDied, name, what));
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
        if (spare == null) {
            hostPool.execute(guest); // no thread to take the loop or to relieve it: the carriers run it
            return true;
        }
        if (group.waiting() != 0) {
            // Leader/follower: the lines have waits to watch, so the loop goes to the thread standing
            // by first (the hand-over a relief makes), and then this thread runs the guest it woke.
            // Nothing of the loop is touched from here on: the caller returns as a relieved thread.
            handOver();
            countHosting(me, true);
            runGuest(me, guest);
            me.cpuSinceLastSample(); // the guest's CPU, dropped: RunStats' parker CPU stays the parker's own
            return false;
        }
        if (!announceHosting(me)) return handBack(me, guest); // a registration or close came first
        countHosting(me, false);
        runGuest(me, guest);
        return endHosting(me);
    }

    /**
     * Counts a hosting and, after a hand-over, books the loop's CPU so far to the parker (the guest's
     * is the user's, not booked). It never throws, whatever fails here (an OutOfMemoryError): the
     * guest must still run, since a woken virtual thread is never dropped; and once the loop was
     * handed over, or a relief may have taken it, the loop's error handling is another thread's (it
     * would fail that thread's waits, and an Error would make this thread leave a loop it no longer
     * runs, whose new owner the reactor would then never close). What fails goes to this thread's
     * handler.
     */
    private void countHosting(ParkerThread me, boolean handedOver) {
        try {
            Runnable hook = hostHook;
            if (hook != null) hook.run();
            counters.hosted();
            if (handedOver) sampleCpu(me);
        } catch (Throwable t) {
            CarrierPool.uncaught(me, t);
        }
    }

    /**
     * Runs a hosted virtual thread until it parks or ends. It never throws: what the guest's run
     * throws (a guest's handler that threw) goes to this thread's handler, and what that throws is
     * dropped ({@link CarrierPool#uncaught}). The loop may be another thread's by now, so nothing may
     * reach the loop's error handling, which would fail that thread's waits.
     */
    private static void runGuest(ParkerThread me, Runnable guest) {
        try {
            guest.run();
        } catch (Throwable t) {
            CarrierPool.uncaught(me, t);
        }
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
            runGuest(me, guest); // a woken virtual thread is never dropped
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
        ReliefEvent.emit(name, handOver());
    }

    /**
     * Gives the loop to the thread standing by; returns whether one was there. A thread hosts only
     * while one stands by, and only a hand-over takes it (a relief, or the owner's own before it
     * hosts while lines have waits), so it is there; a new thread is the fallback should that ever
     * not hold (never a loop left unowned). Package-private for jcstress ({@code LoopHandOverStress}).
     */
    boolean handOver() {
        ParkerThread s = (ParkerThread) SPARE.getAndSet(this, null);
        if (s == null) {
            ParkerThread fresh = new ParkerThread(this, "gar-parker-" + name);
            thread = fresh;
            fresh.start();
            return false;
        }
        if (controlHandsFirst) s.handed = true; // negative control: published before the owner's last write
        thread = s; // volatile, but it is handed that publishes: written before it
        s.handed = true; // volatile, last: the new owner reads it, then the loop's state (group, thread, spareStarted)
        LockSupport.unpark(s);
        return true;
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
        try {
            Runnable hook = standByHook;
            if (hook != null) hook.run();
            sampleCpu(me);
        } catch (Throwable t) {
            // Not the loop's owner: an Error here (an OutOfMemoryError) must not make it leave the
            // loop, failing the owner's waits from outside; and it is published as standing by.
            CarrierPool.uncaught(me, t);
        }
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
        gone = why; // volatile, before the last drain: the Dekker pair with register's offer-then-read
        failAll(why);
        LineClose c;
        while ((c = lineCloses.poll()) != null) c.done().countDown(); // its waits failed with the rest
        ParkerThread s = (ParkerThread) SPARE.getAndSet(this, null); // after gone: the pair with standBy
        if (s != null) LockSupport.unpark(s);
        left.countDown();
        return s != null;
    }

    /**
     * One turn of the loop, up to the wait: snapshot every watched line, take in line closes,
     * registrations and removals, then the group's turn ({@link LineGroup#next}). The loop performs
     * the wait; jcstress runs this same method synchronously against a concurrent registrar and
     * device. Loop's owner only.
     */
    Turn step(boolean afterSleep, boolean backlogged) {
        group.snapshot(); // before the drain: see LineWatch.snapshot
        drain();
        return group.next(afterSleep, backlogged);
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
            group.afterTimedSleep(at, woke);
            ParkerLateEvent.check(name, at, woke, group.waiting());
        }
        SLEEPING.setVolatile(this, false); // awake: a waker need not unpark
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
        SLEEPING.setVolatile(this, true); // SC, before the re-check: the pair with a waker's offer-then-read
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
        armed = on; // volatile, before parking: a registrar that reads parking set then sees these lines
        PARKING.setVolatile(this, true); // SC, before the re-check: the pair with wakeUnarmed
        return inbox.isEmpty() && lineCloses.isEmpty();
    }

    /** The watches the next park arms ({@link LineGroup#armFor}; loop's owner). */
    List<LineWatch> armFor() { return group.armFor(); }

    /** Whether the parker is announced parking and no registrar has ended the park (tests). */
    boolean isParking() { return parking; }

    /** Whether a store on {@code line} since the last turn's snapshot would end a park on {@code armed} (tests). */
    boolean armedParkWouldEnd() { return SnapshotPark.differs(armed); }

    /** The word of {@code slot} of the first line in the snapshot the next {@link Turn.Park} compares against. */
    long parkedOn(Slot slot) { return parkedOn(first, slot); }

    /** The word of {@code slot} of {@code line} in the snapshot the next park compares against; -1 without a watch. */
    long parkedOn(CompletionLine line, Slot slot) { return group.parkedOn(line, slot); }

    /** Whether the parker is announced asleep and no wake has claimed it yet (the wake CAS clears it). */
    boolean isSleeping() { return sleeping; }

    /** Books a timed sleep asked to end at {@code askedAt} that ended at {@code wokeAt} (tests stand it for a sleep). */
    void afterTimedSleep(long askedAt, long wokeAt) { group.afterTimedSleep(askedAt, wokeAt); }

    /** Takes in line closes (each failed and dropped), then registrations (each routed to its line), then removals. */
    private void drain() {
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
    private void failAll(ReactorException why) {
        group.failAll(why);
        LineWait f;
        while ((f = inbox.poll()) != null) {
            f.fail(why);
            counters.deregistered();
        }
        removals.clear();
    }

    /** The thread that runs the loop now (tests: who owns it after a hand-over). */
    Thread loopThread() { return thread; }

    /** Registrations offered and not yet drained (tests). */
    int inboxSize() { return inbox.size(); }

    /** Withdrawals offered and not yet drained (tests). */
    int removalsSize() { return removals.size(); }

    /** Registrations held now on the first line (parker-side view, for tests and statistics). */
    List<Integer> slotSizes() { return slotSizes(first); }

    /** Registrations held now on {@code line}, per slot; empty without a watch (tests). */
    List<Integer> slotSizes(CompletionLine line) { return group.slotSizes(line); }

    /** Lines watched now (tests). */
    int watchedLines() { return group.lines(); }
}
