package dev.gpureactor.parker;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines one parker watches and the turn over them: one {@link LineWatch} per line, routed to,
 * made, dropped and combined.
 */
public final class LineGroup {
    /*
     * Implementation overview.
     *
     * A parker's turn over its group is three calls from the runner (LineParker.step), in this order:
     *   snapshot()    every watch: its line closed? fail and drop it with LineClosed; else read its words
     *                 (acquire, LineWatch.snapshot). Before the drain: see the ordering argument below.
     *   intake        the runner drains its queues into the group: closeLine(line, why) for each notice,
     *                 add(wait) for each registration (routed to its line's watch, made on the line's
     *                 first), remove(wait) for each withdrawal.
     *   next(...)     each watch snapshotted by this turn runs its own turn (LineWatch.next); their answers
     *                 combine by either(). A watch made since the snapshot has no snapshot from before its
     *                 registrations, so the group answers Again: the next turn snapshots it first.
     * Between turns the runner asks what a park arms (armFor), how many waits are held (waiting), and
     * books timed sleeps (afterTimedSleep); on a failure it fails every wait (failAll) or drops the
     * watches of closed lines (dropClosedLines).
     *
     * Ordering (the one cross-thread argument here, proven by jcstress StoreAfterRegistrationStress and
     * UnarmedLineStress on the runner that calls it): a registrar offers to the runner's inbox (release)
     * before it re-reads the word; the snapshot's acquire loads happen before the drain's poll. So a
     * snapshot that saw a store also sees each registration made before that store, which the drain
     * then routes into a watch the scan covers; a store after the snapshot differs from it and ends
     * the park that compares against it, or, on a watch made by this drain (no snapshot yet), the
     * group answers Again. Everything else is single-threaded.
     *
     * Ownership: no field is shared. One thread at a time owns the group: the runner's loop owner
     * (hosting hands the loop, and the group with it, across a volatile write in ParkerHosting; the
     * constructor's writes reach the first thread through Thread.start). The watches' lines are final,
     * so the immutable list armFor returns may be read by registrars after the runner publishes it.
     * The group reads no wall time (the clock is given, a ManualClock in tests) and owns no thread.
     */

    private final WaitPlan.FlagWait plan;
    private final PointTable<Object> points;
    private final Clock clock;
    private final Reports warnings;
    private final ReactorCounters counters;
    private final long spinWindowNanos;
    /** Whether the park arms one line only when given one (a hardware monitor: {@link SnapshotPark#oneLine}). */
    private final boolean parkArmsOneLine;

    /** One watch per line that had a registration, in the order made (loop's owner only). */
    private final ArrayList<LineWatch> watches = new ArrayList<>();
    /** An immutable copy of {@link #watches}, remade when one is made or dropped: what a park may arm. */
    private List<LineWatch> all = List.of();
    /**
     * How many of the first {@link #watches} the last {@link #snapshot} read; those after it were made
     * since (appended by {@link #add}). Never more than the watches: a drop before it lowers it.
     */
    private int snapped;
    /** What the last {@link #next} completed (loop's owner only). */
    private int completedLastTurn;

    /**
     * Whether dropping a closed line's watch fails its waits, the one line that reaches a registration
     * that made it into the watch before the close: false only in jcstress
     * {@code LineCloseRegisterNegativeControl} ({@link ParkerHooks#closedLineFailsWaits}).
     */
    private final boolean closedLineFailsWaits;

    public LineGroup(CompletionLine first, WaitPlan.FlagWait plan, PointTable<Object> points, Clock clock,
              Reports warnings, ReactorCounters counters, long spinWindowNanos, boolean parkArmsOneLine,
              boolean closedLineFailsWaits) {
        this.closedLineFailsWaits = closedLineFailsWaits;
        this.plan = plan;
        this.points = points;
        this.clock = clock;
        this.warnings = warnings;
        this.counters = counters;
        this.spinWindowNanos = spinWindowNanos;
        this.parkArmsOneLine = parkArmsOneLine;
        watch(first); // before any registration: the first turn snapshots it before its drain
    }

    /**
     * Snapshots every watch's line (acquire: see {@link LineWatch#snapshot}); a closed line instead
     * fails and drops its watch (a registration routed into it after the close fails here). Call
     * before the intake.
     */
    public void snapshot() {
        for (int i = 0; i < watches.size(); ) {
            if (snapshotOrDrop(watches.get(i))) i++;
        }
        snapped = watches.size();
    }

    /** Takes in a registration: to its line's watch, made now if the line has none. */
    public void add(LineWait w) {
        watch(w.descriptor().line()).add(w);
    }

    /** Drops a withdrawn wait from its line's watch; none: the line closed, and its waits failed. */
    public void remove(LineWait w) {
        LineWatch watch = watchOf(w.descriptor().line());
        if (watch != null) watch.remove(w);
    }

    /** A line closed under the parker: fails its watch's waits with {@code why} and drops it, if it has one. */
    public void closeLine(CompletionLine line, ReactorException why) {
        LineWatch w = watchOf(line);
        if (w != null) drop(w, why);
    }

    /**
     * Each snapshotted watch's turn (complete every reached wait, query the ports that are due,
     * decide how to wait), combined ({@link #either}); {@link Turn.Again} when a watch was made since
     * the snapshot (the next turn snapshots it first).
     */
    public Turn next(boolean afterSleep, boolean backlogged) {
        Turn next = Turn.IDLE;
        long now = clock.nanos();
        int old = snapped;
        int done = 0;
        for (int i = 0; i < old; i++) {
            LineWatch w = watches.get(i);
            next = either(next, w.next(afterSleep, backlogged), now);
            done += w.takeCompleted();
        }
        completedLastTurn = done;
        return old < watches.size() ? Turn.AGAIN : next;
    }

    /** Waits the last {@link #next} completed, over every line (0: the turn was empty). */
    int completedLastTurn() { return completedLastTurn; }

    /**
     * Two lines' answers as one: {@code Again} beats {@code Park} beats {@code Sleep} beats
     * {@code Idle}; two parks park to the earlier bound, spinning as much of it as the most eager
     * asks; two sleeps end at the earlier; a park with a sleep ends no later than the sleep would.
     * Pure.
     */
    public static Turn either(Turn a, Turn b, long now) {
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

    /**
     * The watches the next park arms: all of them, or the one busy watch where the park arms one
     * line. An immutable list (the runner publishes it to registrars).
     */
    public List<LineWatch> armFor() {
        if (!parkArmsOneLine || watches.size() == 1) return all;
        LineWatch busy = null;
        for (int i = 0; i < watches.size(); i++) {
            LineWatch w = watches.get(i);
            if (w.waiting() == 0) continue;
            if (busy != null) return all; // two busy lines: a monitor cannot arm both
            busy = w;
        }
        return busy == null ? all : List.of(busy);
    }

    /** Books a timed sleep asked to end at {@code askedAt} that ended at {@code wokeAt} to every watch (the OS's lateness is the thread's). */
    public void afterTimedSleep(long askedAt, long wokeAt) {
        for (int i = 0; i < watches.size(); i++) watches.get(i).afterTimedSleep(askedAt, wokeAt);
    }

    /** Fails and drops the watch of every closed line; returns whether there was one. */
    public boolean dropClosedLines() {
        boolean any = false;
        for (int i = 0; i < watches.size(); ) {
            LineWatch w = watches.get(i);
            if (!w.line().isClosed()) {
                i++;
                continue;
            }
            drop(w, closed(w.line()));
            any = true;
        }
        return any;
    }

    /** Fails every wait held, on every line, with {@code why}; the watches stay. */
    public void failAll(ReactorException why) {
        for (int i = 0; i < watches.size(); i++) watches.get(i).failAll(why);
    }

    /** Waits held on all the group's lines. */
    public int waiting() {
        int n = 0;
        for (int i = 0; i < watches.size(); i++) n += watches.get(i).waiting();
        return n;
    }

    /** Lines watched now. */
    public int lines() { return watches.size(); }

    /** The word of {@code slot} of {@code line} in the snapshot the next park compares against; -1 without a watch. */
    long parkedOn(CompletionLine line, Slot slot) {
        LineWatch w = watchOf(line);
        return w == null ? -1 : w.parkedOn(slot);
    }

    /** Waits held now on {@code line}, per slot; empty without a watch (tests and statistics). */
    public List<Integer> slotSizes(CompletionLine line) {
        LineWatch w = watchOf(line);
        return w == null ? List.of() : w.slotSizes();
    }

    private boolean snapshotOrDrop(LineWatch w) {
        CompletionLine line = w.line();
        if (!line.isClosed()) {
            try {
                w.snapshot();
                return true;
            } catch (ReactorException e) {
                if (e.code() != ErrorCode.LineClosed) throw e;
            } catch (RuntimeException e) {
                // A line this thread cannot read (its memory confined to another thread: WrongThreadException)
                // fails its own waits and is dropped: thrown on, it would fail every line's waits ParkerDied,
                // and again at every turn, since each turn reads it again.
                drop(w, unreadable(line, e));
                return false;
            }
        }
        drop(w, closed(line));
        return false;
    }

    /**
     * The failure of a wait whose line this thread cannot read: its memory is confined to another
     * thread ({@code WrongThreadException}; an arena closed under the line reads as a closed line). Coded
     * {@link ErrorCode#InvalidArgument}, naming the memory that works.
     */
    public static ReactorException unreadable(CompletionLine line, RuntimeException e) {
        return new ReactorException(ErrorCode.InvalidArgument, e, "the memory of line " + line.name(),
                "unreadable by this thread (" + e + ")", "memory every thread can read (Arena.ofShared(), ofAuto() or global())");
    }

    private static ReactorException closed(CompletionLine line) {
        return new ReactorException(ErrorCode.LineClosed, line.name(), "wait");
    }

    /** Fails {@code w}'s waits with {@code why} and stops watching its line. */
    private void drop(LineWatch w, ReactorException why) {
        if (closedLineFailsWaits) w.failAll(why); // the one line the negative control removes
        int i = watches.indexOf(w);
        watches.remove(i);
        if (i < snapped) snapped--; // a snapshotted watch left: the ones made since stay after it
        all = List.copyOf(watches);
    }

    /** The watch of {@code line}, made now if it has none. */
    private LineWatch watch(CompletionLine line) {
        LineWatch w = watchOf(line);
        if (w != null) return w;
        w = new LineWatch(line, plan, points, clock, warnings, counters, spinWindowNanos);
        watches.add(w);
        all = List.copyOf(watches);
        return w;
    }

    /** The watch of {@code line}, or null: a linear search, a parker watches a few lines. */
    private LineWatch watchOf(CompletionLine line) {
        for (int i = 0; i < watches.size(); i++) {
            if (watches.get(i).line() == line) return watches.get(i);
        }
        return null;
    }
}
