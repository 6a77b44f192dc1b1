package dev.gpureactor.parker;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.OwnThreads;
import dev.gpureactor.core.Clock;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Sleeper;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import dev.gpureactor.park.PortFault;
import dev.gpureactor.park.TimerSlack;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The runner of one parker: the platform thread that waits on its {@link CompletionLine}s (one, or a
 * group: see {@code GpuReactor.Builder#linesPerParker}) for every future of their slots, and unparks
 * exactly the waiters whose words reached their targets. Whom to complete and how to wait next is the
 * turn's decision ({@link LineGroup}: one {@link LineWatch} per line, pure, on an injected clock); this
 * class performs it. Every other thread talks to it through its {@link ParkerInbox}; hosting a woken
 * virtual thread, and handing the loop to the thread standing by, is {@link ParkerHosting}'s. See
 * docs/PARKER.md and docs/DESIGN.md §5–§6.
 */
public final class LineParker implements Runnable {
    /*
     * One thread at a time owns the loop: the first ParkerThread, or a standing-by one handed the
     * loop (ParkerHosting). The owner alone touches the group and the plain fields; each hand-over
     * is a volatile write the next owner reads before its first access (DESIGN §5 "loop hand-over").
     *
     * The loop, one pass: closing set? fail every wait and the inbox, leave. Open a capture of the
     * carriers' wakes (ParkerThread), keeping the first to host unless the carriers are
     * backlogged (then neither spin nor host). step(): group.snapshot() (acquire, before the
     * drain), inbox.drain(), group.next(): the Turn. Close the capture: the batched wakes go to the
     * carriers together; a kept one is hosted or given to them too. Perform the Turn: Idle, Sleep(at) -> sleepUntil
     * (the sleep handshake; a timed sleep's lateness is booked to every watch); Park(bound, spin) ->
     * inbox.announcePark(group.armFor()), then the SnapshotPark; Again -> turn at once. An
     * exception: failed() (a closed line's LineClosed drops its watch alone; anything else fails
     * every wait ParkerDied and goes on; an Error also ends the thread, and the reactor gives each
     * line a parker again at its next registration). The reactor's warnings sink never throws here
     * (GuardedSink).
     *
     * With a carrier backlog (CarrierPool.backlogged; on the JDK's scheduler never) a thread woken
     * early would only queue, so the turn neither wakes early nor spins (LineWatch.decide), and this
     * thread does not host. Its CPU time is booked per parker (cpuNanos), whatever its lines; its
     * phases (turn, spin, host) with it.
     */

    /** The line the parker was made for: it names the parker and its threads. */
    private final CompletionLine first;
    /** The parker's name, for its threads and events: its first line's. */
    private final String name;
    private final SnapshotPark park;
    private final Reports warnings;
    private final ReactorCounters counters;
    /** Where deadline sleeps go instead of parkNanos (an io_uring timeout); null for parkNanos. One per parker thread. */
    private final Supplier<Sleeper> deadlineSleeperFactory;
    /** The carriers whose woken virtual threads this parker may run itself; null: it never hosts. */
    private final CarrierPool hostPool;
    /** The carriers the woken virtual threads run on, asked for a backlog; null on the JDK's scheduler (never backlogged). */
    private final CarrierPool carriers;
    private final ParkerHooks hooks;
    /** The waits and the turn over every line: the loop's owner's alone; ownership moves with the loop (DESIGN §5 "loop hand-over"). */
    public final LineGroup group;
    private final Clock clock;
    /** How every other thread reaches the loop: registrations, withdrawals, closes, and the flags they read. */
    public final ParkerInbox inbox;
    /** The hand-over of the loop between this parker's threads, and hosting. */
    public final ParkerHosting hosting;
    /** The loop lent to a carrier for a turn while the owner sleeps out a polling park; null: never lent. */
    private final TurnLoan loan;
    /** CPU time of this parker's threads, booked by each at its sleeps (any thread adds; readers sum). */
    private final LongAdder cpuNanos = new LongAdder();
    /** Set before the first thread starts; relief threads do not count as parkers started. */
    private boolean started;
    /**
     * The phases since the last booking (RunStats.ParkerPhases), wall time on the loop's thread: the
     * loop's owner's alone, booked by it with its CPU samples; ownership moves with the loop.
     */
    private long turns, emptyTurns, turnNanos, spinNanos, hostNanos, phasesBookedAt;
    /** JFR: the backlog and relief events, sampled; the loop owner's, as the phases. */
    private final ParkerEvents events;
    /** How a thread of this parker dies: its failure made even with the heap full, its leaving tried again. */
    private final ParkerDeath death;

    public LineParker(CompletionLine line, SnapshotPark park, WaitPlan.FlagWait plan, PointTable<Object> points, Clock clock,
               Reports warnings, ReactorCounters counters, long spinWindowNanos,
               Supplier<Sleeper> deadlineSleeperFactory, CarrierPool carriers, boolean hosting) {
        this(line, park, plan, points, clock, warnings, counters, spinWindowNanos, deadlineSleeperFactory, carriers, hosting,
                false, ParkerHooks.NONE);
    }

    /** As the library makes one, with {@code hooks} injecting a test's faults or a negative control's change. */
    public LineParker(CompletionLine line, SnapshotPark park, WaitPlan.FlagWait plan, PointTable<Object> points, Clock clock,
               Reports warnings, ReactorCounters counters, long spinWindowNanos,
               Supplier<Sleeper> deadlineSleeperFactory, CarrierPool carriers, boolean hosting, boolean carrierTurns,
               ParkerHooks hooks) {
        this.deadlineSleeperFactory = deadlineSleeperFactory;
        this.carriers = carriers;
        this.hostPool = hosting ? carriers : null;
        this.first = line;
        this.name = line.name();
        this.events = new ParkerEvents(name, carriers, warnings);
        this.death = new ParkerDeath(name);
        this.park = park;
        this.clock = clock;
        this.warnings = warnings;
        this.counters = counters;
        this.hooks = hooks;
        this.group = new LineGroup(line, plan, points, clock, warnings, counters, spinWindowNanos, park.oneLine(), hooks.closedLineFailsWaits());
        this.hosting = new ParkerHosting(this, hostPool, counters, hooks);
        this.inbox = new ParkerInbox(group, this.hosting, counters, hooks);
        // Lent only where the park polls (a hardware monitor wakes on the store itself).
        this.loan = carrierTurns && carriers != null && !park.oneLine() ? new TurnLoan(hooks.ownerWaitsForBorrower(), hooks.failedTurnShutsLoan()) : null;
    }

    /** The parker's threads (the loop's, those standing by): the reactor's close joins them ({@link ParkerRoster#awaitLeft}). */
    final OwnThreads threads = new OwnThreads();

    void start() {
        Thread t = new ParkerThread(this, "gar-parker-" + name);
        inbox.runBy(t);
        t.start();
    }

    /** The parker's name (its first line's); its threads are {@code gar-parker-<name>}. */
    String name() { return name; }

    /** The line the parker was made for, its first. */
    public CompletionLine line() { return first; }

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
            if (!relieved) hosting.startStandbyOnce(); // hosting relieves onto it
            while (true) {
                if (relieved && !hosting.standBy(me)) {
                    quiet = true;
                    break;
                }
                if (me.relief) {
                    me.relief = false;
                    events.reliefTaken(relieved); // JFR, by the new owner
                }
                if ((why = loop(me)) != null) break;
                relieved = true; // null: relieved while it ran a guest
            }
        } catch (Error e) {
            why = death.of(e);
            throw e;
        } finally {
            try {
                sampleCpu(me);
                if (me.deadlineSleeper instanceof AutoCloseable c) {
                    try {
                        c.close();
                    } catch (Exception e) {
                        warnings.accept(Warning.of(ErrorCode.Backend, "parker", "close deadline sleeper", -1, e.getClass().getSimpleName(), e.getMessage()));
                    }
                }
            } finally { // the leaving comes whatever the bookkeeping threw (ParkerDeath: a heap run out)
                if (!quiet) leave(why);
            }
        }
    }

    /**
     * The loop's thread leaves for good, in the order {@link ParkerDeath} gives: the death counted and
     * warned once (whatever ended the thread, inside the loop or around it), then the waits failed
     * and the standby woken, then the JFR event.
     */
    private void leave(ReactorException why) {
        if (why == null) why = death.of(null);
        if (why.code() == ErrorCode.ParkerDied) {
            counters.parkerDied(); // an add: before the waits fail, so a joiner that sees ParkerDied sees it
            ParkerDeath.warn(warnings, why);
        }
        ParkerDeath.leave(this, why, hooks); // no lambda here: its allocation could be the one that fails
        events.leave();
    }

    /**
     * Runs until closed or an {@link Error}; returns why it left, or null when
     * a registrar or close relieved this thread while it ran a guest (the loop is another thread's).
     */
    private ReactorException loop(ParkerThread me) {
        boolean afterSleep = false;
        boolean wasBacklogged = false; // JFR: the backlog event is sampled where this turns true
        while (true) {
            ReactorException c = inbox.closing();
            if (c != null) {
                bookPhases(System.nanoTime());
                inbox.failAll(c);
                return c;
            }
            // Nothing in the library interrupts a parker (close sets closing and unparks), so an
            // interrupt is foreign; honoured it would fail every wait of the parker, left set it makes
            // every park and sleep return at once (a hot spin). It is cleared, deliberately ignored.
            Thread.interrupted();
            try {
                hooks.beforePass(this);
                // With a backlog the parker neither spins nor hosts: its core is the carriers'.
                boolean backlogged = carriers != null && carriers.backlogged();
                long turnStart = System.nanoTime();
                if (backlogged && !wasBacklogged) events.backlogFlipped(turnStart); // sampled at the flip
                wasBacklogged = backlogged;
                // Capture the scan's wakes: handed over together after it (a long scan's in parts of BATCH_MAX), the first
                // hosted unless backlogged (with every carrier busy and none queued, a hand-off waits behind a busy
                // carrier's task: docs/PARKER.md, "CPU by phase").
                if (carriers != null) me.openCapture(carriers, hostPool != null && !backlogged);
                Turn next;
                try {
                    next = step(afterSleep, backlogged);
                } catch (Throwable t) { // any throwable, a user's undeclared checked one too: a captured wake is never dropped
                    me.closeCaptureAfter(t); // the turn's failure stays its own
                    throw t;
                }
                Runnable guest = me.closeCapture();
                long turnEnd = System.nanoTime();
                turns++;
                if (group.completedLastTurn() == 0) emptyTurns++;
                turnNanos += turnEnd - turnStart;
                if (guest != null) {
                    if (!hosting.host(me, guest)) return null; // relieved: the loop, and these phases, are another thread's
                    hostNanos += System.nanoTime() - turnEnd;
                }
                afterSleep = switch (next) {
                    case Turn.Idle _ -> sleepUntil(me, Long.MAX_VALUE);
                    case Turn.Sleep s -> sleepUntil(me, s.at());
                    case Turn.Park p -> {
                        counters.parked();
                        if (turnEnd - phasesBookedAt >= CPU_SAMPLE_GAP_NANOS) book(me, turnEnd); // a parker that never sleeps still shows
                        List<LineWatch> on = group.armFor();
                        if (inbox.announcePark(on)) spinNanos += parkLending(on, p.bound(), p.spin());
                        inbox.parked(); // the park is over: a registrar need not end it
                        yield false;
                    }
                    case Turn.Again _ -> false; // everything settled; look again at once
                };
            } catch (Throwable e) { // an undeclared checked throwable from a user's code too: the thread lives on
                ReactorException why = failed(e);
                if (why != null) return why;
            }
        }
    }

    /**
     * The loop's error handling: a closed line's exception fails and drops that line's watch, and
     * the loop goes on (returns null); any other exception fails the waits the parker holds with
     * {@link ErrorCode#ParkerDied}, is counted and warned, and the loop goes on (returns null): the
     * registrations still in the inbox are the next turn's, so one made after a joiner saw the death
     * is served (failing the inbox would fail it by a death that came before it). An {@link Error}
     * fails them and the inbox's too, and ends the thread (rethrown: {@link #run} counts and warns it
     * as the thread's death).
     */
    private ReactorException failed(Throwable e) {
        if (e instanceof Error err) throw err; // the thread's death: run() leaves, failing every wait (ParkerDeath)
        if (e instanceof ReactorException r && r.code() == ErrorCode.LineClosed && group.dropClosedLines()) return null;
        String what = e instanceof ReactorException r ? r.getMessage() : e.getClass().getName() + ": " + PortFault.messageOf(e); // not toString: a user's may throw
        ReactorException died = new ReactorException(ErrorCode.ParkerDied, e, name, what);
        counters.parkerDied(); // counted and warned before the waits fail: a joiner that sees ParkerDied sees both
        warnings.accept(Warning.of(ErrorCode.ParkerDied, name, what));
        group.failAll(died);
        return null;
    }

    /**
     * One turn of the loop, up to the wait: snapshot every watched line, take in line closes,
     * registrations and removals, then the group's turn ({@link LineGroup#next}). The loop performs
     * the wait; jcstress runs this same method synchronously against a concurrent registrar and
     * device. Loop's owner only.
     */
    public Turn step(boolean afterSleep, boolean backlogged) {
        group.snapshot(); // before the drain: see LineWatch.snapshot
        inbox.drain();
        return group.next(afterSleep, backlogged);
    }

    /** {@link #step(boolean, boolean)} with the carriers keeping up (as jcstress runs it). */
    public Turn step(boolean afterSleep) { return step(afterSleep, false); }

    /**
     * The owner's park on {@code on}, its loop lent meanwhile to a carrier that sees a word move
     * ({@link TurnLoan}; where carriers take turns): opened after the turn, taken back after the park,
     * waiting out a lent turn, before the loop's state is touched again. What a lent turn threw is
     * thrown here, as the owner's own turn's would be. Returns the park's spin. Loop's owner only;
     * jcstress runs it against {@link #lendTurn}.
     */
    public long parkLending(List<LineWatch> on, long bound, long spin) {
        if (loan == null) return park.park(on, bound, spin);
        loan.open(); // release: the turn's writes to the group, before a carrier may borrow it
        long spun = 0;
        try {
            spun = park.park(on, bound, spin);
        } catch (RuntimeException | Error e) {
            // A line closed under the park just ends it: a lent turn may already have dropped that line's
            // watch, and the loop's error handling, finding nothing to drop, would fail every wait. The
            // next turn's snapshot fails and drops the closed line's watch (LineGroup.snapshot).
            if (!(e instanceof ReactorException r && r.code() == ErrorCode.LineClosed)) {
                Throwable lent = loan.takeBack();
                if (lent != null) e.addSuppressed(lent);
                throw e;
            }
        }
        Throwable lent = loan.takeBack(); // acquire: a lent turn's writes
        if (lent instanceof RuntimeException e) throw e;
        if (lent instanceof Error e) throw e;
        if (lent != null) throw new java.lang.reflect.UndeclaredThrowableException(lent, "a lent turn threw"); // a checked one, undeclared
        return spun;
    }

    /**
     * A carrier between two tasks: if this parker sleeps out a polling park and a word of its armed
     * lines has moved, borrow the loop and run the turn here ({@link TurnLoan}). The waiters it
     * completes go to this carrier's own queue. The owner is unparked only when the turn's answer
     * is not a park (it then sleeps, idles or turns again, which its park would not). Never throws:
     * what the turn throws is the owner's to handle. Returns whether it ran a turn.
     */
    public boolean lendTurn() {
        TurnLoan l = loan;
        if (l == null || !l.isOpen() || inbox.isClosing()) return false;
        try {
            if (!inbox.armedParkWouldEnd()) return false; // a plain look (racy, a hint: the CAS decides)
        } catch (ReactorException closed) {
            return false; // an armed line closed: the owner's own park ends on it and drops it
        }
        if (!l.borrow()) return false;
        Thread owner = l.owner(); // read while lent: the owner cannot change until the give-back
        boolean wake;
        try {
            hooks.beforeLentTurn(this);
            Turn t = step(false, carriers.backlogged());
            counters.carrierTurn(group.completedLastTurn());
            wake = !(t instanceof Turn.Park);
        } catch (Throwable e) {
            l.failed(e);
            wake = true;
        }
        l.giveBack();
        if (wake) LockSupport.unpark(owner); // a stray unpark at worst: the owner turns once more
        return true;
    }

    /**
     * OS sleep to {@code at} (forever for MAX_VALUE), woken early by a registration or close.
     * Returns whether it was a deadline sleep (the next turn's completions are then {@code Late}).
     */
    private boolean sleepUntil(ParkerThread me, long at) {
        boolean timed = at != Long.MAX_VALUE;
        Sleeper deadlineSleeper = me.deadlineSleeper;
        if (!inbox.announceSleep()) return timed;
        counters.slept();
        book(me, System.nanoTime());
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
            ParkerLateEvent.check(warnings, name, at, woke, group.waiting());
        }
        inbox.awake(); // awake: a waker need not unpark
        return timed;
    }

    /** Books {@code me}'s CPU since its last sample to this parker and the reactor's counters (at a sleep, a hand-over, leaving). */
    void sampleCpu(ParkerThread me) { bookCpu(me.cpuSinceLastSample()); }

    /** Books {@code me}'s CPU and the phases since the last booking (loop's owner only). */
    private void book(ParkerThread me, long now) {
        sampleCpu(me);
        bookPhases(now);
    }

    /** Books the phases since the last booking to the reactor's counters (loop's owner only). */
    private void bookPhases(long now) {
        counters.parkerPhases(turns, emptyTurns, turnNanos, spinNanos, hostNanos);
        turns = emptyTurns = turnNanos = spinNanos = hostNanos = 0;
        phasesBookedAt = now;
    }

    private void bookCpu(long d) {
        if (d == 0) return;
        cpuNanos.add(d);
        counters.parkerCpu(d);
    }

    /** Between sleeps, a parker that only parks samples its CPU at most this often (a sample is a clock_gettime). */
    private static final long CPU_SAMPLE_GAP_NANOS = 1_000_000;

    /** CPU time this parker's threads used so far, for all its lines (see {@link RunStats#parkerCpuNanos}). */
    public long cpuNanos() { return cpuNanos.sum(); }

    /** The watches the next park arms ({@link LineGroup#armFor}; loop's owner). */
    public List<LineWatch> armFor() { return group.armFor(); }

    /** The word of {@code slot} of the first line in the snapshot the next {@link Turn.Park} compares against. */
    public long parkedOn(Slot slot) { return parkedOn(first, slot); }

    /** The word of {@code slot} of {@code line} in the snapshot the next park compares against; -1 without a watch. */
    public long parkedOn(CompletionLine line, Slot slot) { return group.parkedOn(line, slot); }

    /** Books a timed sleep asked to end at {@code askedAt} that ended at {@code wokeAt} (tests stand it for a sleep). */
    public void afterTimedSleep(long askedAt, long wokeAt) { group.afterTimedSleep(askedAt, wokeAt); }

    /** Registrations held now on the first line (parker-side view, for tests and statistics). */
    public List<Integer> slotSizes() { return slotSizes(first); }

    /** Registrations held now on {@code line}, per slot; empty without a watch (tests). */
    public List<Integer> slotSizes(CompletionLine line) { return group.slotSizes(line); }

    /** Lines watched now (tests). */
    public int watchedLines() { return group.lines(); }

    /** Neither closing nor gone: registrations to it will be served. */
    public boolean isLive() { return inbox.isLive(); }
}
