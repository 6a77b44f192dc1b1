package dev.gpureactor.parker;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.DeadlinePlan;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import dev.gpureactor.park.PortFault;
import dev.gpureactor.park.SlowQueries;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The single-threaded half of a parker: the waits it holds on one line and the turn that decides,
 * from a snapshot of the line and the clock, whom to complete and how to wait next.
 *
 * <p>Implementation overview. The waits sit in one {@link SlotWaits} per slot, lowest target first ({@link
 * LineWait#BY_TARGET}: wrapping order, then registration order). A turn ({@link #next}) scans each busy slot
 * of the {@linkplain #snapshot snapshot} from its head up, completing every reached wait, so a wake costs
 * O(woken · log n), and a slot reached whole is taken out at once, in arrival order while only registrations
 * changed it; then queries the head of each slot whose backstop is due (the port is the error authority; a
 * head done by a store since the snapshot goes out with every wait that store reached, one query for them
 * all: a failed stream fails the slot with the port's coded error, a port that says done for a word never
 * written completes with a {@link ErrorCode#WordNeverWritten} warning; a port whose query blocks is warned
 * {@link ErrorCode#SlowPort}: {@link SlowQueries}); then answers with a {@link Turn} built by the pure
 * {@link #decide}. Completions feed the estimator ({@link #observe}, in runs per point: {@link
 * ObservedRun}): after a deadline sleep as {@code Late} (censored) unless the OS overslept past its {@link
 * Oversleep allowance}, otherwise as {@code Exact}.
 *
 * <p>No field here is shared: one thread at a time owns a watch (the runner's loop; hosting hands
 * the loop, and this object with it, across a volatile write in {@link ParkerHosting}). The only
 * cross-thread reads are the line's words (acquire loads in {@link #snapshot}) and the futures'
 * states (their own CASes, through each {@link LineWait}). Nothing here blocks, sleeps or reads the wall: the clock is given, so
 * tests run it on a {@code ManualClock}.
 */
public final class LineWatch {
    private final CompletionLine line;
    private final WaitPlan.FlagWait plan;
    private final long marginNanos;
    private final Clock clock;
    private final Reports warnings;
    private final ReactorCounters counters;
    /** How long after a predicted wake the parker spins (no hardware park) before sleeping in slices. */
    private final long spinWindowNanos;

    private final SlotWaits[] slots = new SlotWaits[CompletionLine.WORDS];
    /** When each slot's head was last queried (its backstop runs from there). */
    private final long[] lastQuery = new long[CompletionLine.WORDS];
    /** The words this turn scans and the next park compares against. */
    private final long[] snapshot = new long[CompletionLine.WORDS];
    /** Whether {@link #snapshot} ran once: a watch is made by an intake, after that turn's snapshot. */
    private boolean snapshotted;
    /** The waits one scan found reached, handed over after it (empty between turns but after a failure). */
    private final ArrayList<LineWait> reached = new ArrayList<>();
    /** The scan's completed waits on their way to the estimator; null without a deadline plan. */
    private final ObservedRun observed;
    private final Oversleep oversleep = new Oversleep();
    /** Each slot's backstop queries, timed: a port whose query blocks holds every line of this parker, and is warned. */
    private final SlowQueries slowQueries = new SlowQueries(CompletionLine.WORDS);
    /** Whether the last timed sleep ended later than its allowance. */
    private boolean osLate;
    /** Whether the last {@link Turn.Sleep} decided ends at a backstop, before the earliest wake. */
    private boolean sleepToBackstop;
    private int waiting;
    /** Waits this watch completed since {@link #takeCompleted} last ran (the parker's empty turns are those with none). */
    private int completed;

    public LineWatch(CompletionLine line, WaitPlan.FlagWait plan, PointTable<Object> points, Clock clock,
              Reports warnings, ReactorCounters counters, long spinWindowNanos) {
        this.line = line;
        this.plan = plan;
        Optional<DeadlinePlan> deadline = plan.predict();
        this.marginNanos = deadline.map(DeadlinePlan::marginNanos).orElse(0L);
        this.clock = clock;
        this.warnings = warnings;
        this.counters = counters;
        this.spinWindowNanos = spinWindowNanos;
        this.observed = deadline.isPresent() ? new ObservedRun(points, deadline.get(), warnings) : null;
        for (int i = 0; i < slots.length; i++) slots[i] = new SlotWaits();
    }

    /**
     * Reads every word (acquire). Call before taking in the registrations: a snapshot that saw a
     * store then also sees every registration made before it (release → acquire), so the scan that
     * reads it completes that registration; a store after it ends the park that compares against it
     * (jcstress {@code StoreAfterRegistrationStress}).
     */
    public void snapshot() {
        for (int i = 0; i < snapshot.length; i++) snapshot[i] = line.word(Slot.of(i));
        snapshotted = true;
    }

    /**
     * Takes in a registration (a settled one is only counted out), after this turn's snapshot. A wait
     * already held is only counted out too: a wait given back to its parker (a plan's runner that left
     * early) is registered again, and its withdrawal may have reached the parker before its first
     * registration did, so both registrations find the wait pending.
     */
    public void add(LineWait w) {
        if (!w.isPending()) {
            counters.deregistered();
            return;
        }
        int s = w.descriptor().slot().index();
        SlotWaits set = slots[s];
        if (w.givenBack && set.contains(w)) { // held already: one registration too many (only a wait given back has two)
            counters.deregistered();
            return;
        }
        if (set.isEmpty()) {
            lastQuery[s] = clock.nanos(); // a slot's backstop runs from its first wait
        } else if (snapshotted) { // a watch made by this intake has no snapshot yet, and no scan this turn
            // The turn's scan would complete the waits this turn's snapshot shows reached; they are taken
            // out for it first. So every wait held is ahead of the word, within 2^63 of it, and of each
            // other: the range where BY_TARGET's wrapping order is a total order. A wait left behind a
            // word that jumped, beside one registered 2^63 past it, would sort after it: the later target
            // would complete early, or the earlier one never be reached by the scan.
            takeOutReached(set, snapshot[s]); // counted out by the scan, which settles them
        }
        set.add(w);
        waiting++;
    }

    /** Drops a withdrawn wait (cancelled, timed out, interrupted), if held. */
    public void remove(LineWait w) {
        if (slots[w.descriptor().slot().index()].remove(w)) {
            waiting--;
            counters.deregistered();
        }
    }

    /**
     * One turn after the snapshot and the intake: completes every reached wait, queries the ports
     * that are due, and says how to wait next.
     *
     * @param afterSleep whether the thread comes from a deadline sleep (completions then are {@code Late})
     */
    public Turn next(boolean afterSleep, boolean backlogged) {
        if (waiting == 0) return Turn.IDLE;
        long now = clock.nanos();
        scan(now, afterSleep);
        backstop(now, afterSleep);
        if (waiting == 0) return Turn.AGAIN;
        LineWait first = earliestHead(clock.nanos()); // waiting > 0: a slot has a head
        long nextBackstop = nextBackstop();
        Turn t = decide(clock.nanos(), first.wakeAtNanos, first.resumeAtNanos, first.spreadNanos, nextBackstop, oversleep.allowanceNanos(),
                marginNanos, spinWindowNanos, plan.parkNanos(), backlogged, first.resumeAtNanos - first.startNanos);
        sleepToBackstop = t instanceof Turn.Sleep s && s.at() == nextBackstop && nextBackstop - first.resumeAtNanos < 0;
        return t;
    }

    /**
     * How to wait, from the earliest head's wake and spread, the next backstop, the OS's recent
     * lateness and whether the carriers have a backlog. Pure: the whole decision, tested on numbers
     * alone.
     *
     * <p><b>When speed pays.</b> Waking early (before the predicted wake by the OS's excess
     * lateness) and spinning past it buy a sub-microsecond wake, worth its CPU only when the woken
     * thread can run at once. With a backlog ({@code backlogged}: woken virtual threads queue for a
     * carrier and none is idle) it would only wait in the queue, and the spinning takes a core from
     * the carriers: so sleep to the wake itself and park without spinning.
     *
     * <p>A spin pays only where a prediction says the store lands inside it, so it covers the point's
     * whole recent spread (PointEstimate.spreadNanos: its exact samples' range) or nothing: a
     * <b>sharp</b> point, whose spread is within the spin window or a tenth of the wait's sleep
     * ({@code sleptNanos}, so a jittery long wait spins at most ~10 % of it), spins past its wake for
     * the larger of window and spread. A <b>diffuse</b> point (spread past both: 0.5–5 ms work of one
     * shape) would burn the spin after nearly every wake and rarely catch the store, and with several
     * such waits on a line some wait is always near its prediction, so the parker would spin almost
     * all the time: it parks in slices from its wake instead. So does a wait nothing predicts
     * ({@code spreadNanos < 0}: a cold point, a plan without an estimate), and every wait when the
     * window is 0 (the user's {@code parkSpin(0)}: no spin at all).
     *
     * <p><b>A second look.</b> Past {@code wakeAt} with nothing (a prediction a late wake halved),
     * the wait sleeps again to {@code resumeAt}, the work's exact floor, and spins and parks from
     * there; {@code resumeAt == wakeAt} is the one-wake decision.
     */
    public static Turn decide(long now, long wakeAt, long resumeAt, long spreadNanos, long nextBackstop, long allowanceNanos,
                       long marginNanos, long spinWindowNanos, long parkNanos, boolean backlogged, long sleptNanos) {
        // The margin is there for the OS's lateness; when the measured lateness outgrows it, wake
        // earlier by the excess (not when backlogged: an early wake buys nothing then).
        long early = backlogged ? 0 : Math.max(0, allowanceNanos - marginNanos);
        long sleepTo = wakeAt - early;
        if (sleepTo - now > 0) return new Turn.Sleep(Math.min(sleepTo, nextBackstop));
        // One look at the halved prediction found nothing (this turn scanned): on to the exact floor.
        long resumeTo = resumeAt - early;
        if (resumeTo - now > 0) return new Turn.Sleep(Math.min(resumeTo, nextBackstop));
        long bound = Math.min(parkNanos, Math.max(1, nextBackstop - now));
        boolean sharp = spreadNanos >= 0 && spreadNanos <= Math.max(spinWindowNanos, sleptNanos / 10);
        long spin = backlogged || !sharp || spinWindowNanos == 0 ? 0
                : Math.max(0, Math.min(bound, resumeAt + Math.max(spinWindowNanos, spreadNanos) - now));
        return new Turn.Park(bound, spin);
    }

    /**
     * Books a timed sleep asked to end at {@code askedAt} that ended at {@code wokeAt}: later than the
     * allowance means the OS, not the work, made this wake late (see {@link #observe}).
     */
    public void afterTimedSleep(long askedAt, long wokeAt) {
        osLate = wokeAt - askedAt > oversleep.allowanceNanos();
        oversleep.sample(askedAt, wokeAt, !sleepToBackstop);
    }

    /** Moves {@code set}'s heads that {@code word} reached, or that settled another way, to {@link #reached}, lowest target first. */
    private void takeOutReached(SlotWaits set, long word) {
        LineWait head;
        while ((head = set.first()) != null
                && (MemoryDescriptor.reached(word, head.descriptor().target()) || !head.isPending())) {
            reached.add(set.pollFirst());
        }
    }

    /**
     * Completes every wait the snapshot shows reached, lowest target first, in each busy slot (a slot
     * reached whole in arrival order while only registrations changed it: {@link SlotWaits#drainTo}): the
     * scan first takes them all out, then hands them over together, so that no unpark (a carrier's
     * wake, a queue offer) runs between two reads of the scan. Many from several slots settle oldest
     * registration first ({@link ScanOrder}); the estimator still hears them slot by slot.
     */
    private void scan(long now, boolean afterSleep) {
        int slotsReached = 0;
        for (int s = 0; s < slots.length; s++) {
            if (!slots[s].isEmpty() && takeOut(slots[s], snapshot[s])) slotsReached++;
        }
        settle(now, afterSleep, slotsReached);
    }

    /** Moves the waits of {@code set} that {@code word} reached to {@link #reached}; whether there were any. */
    private boolean takeOut(SlotWaits set, long word) {
        int before = reached.size();
        if (MemoryDescriptor.reached(word, set.last().descriptor().target())) {
            set.drainTo(reached); // every wait of the slot at once, without a rebalance per wait
        } else {
            takeOutReached(set, word);
        }
        return reached.size() != before;
    }

    /** Completes the waits taken out into {@link #reached} from {@code slotsReached} slots, and hands them over together. */
    private void settle(long now, boolean afterSleep, int slotsReached) {
        if (reached.isEmpty()) return;
        waiting -= reached.size();
        counters.deregistered(reached.size()); // one update for the scan: registrars count on the same word
        int[] order = slotsReached > 1 ? ScanOrder.byRegistration(reached) : null;
        // A sorted scan's outcomes are held by position while each wait is at hand, and observed after, in slot
        // order (one run per point, as unsorted); without memory to hold them it settles in slot order.
        boolean held = order != null && observed != null;
        if (held && !observed.holdFor(reached.size())) {
            order = null;
            held = false;
        }
        // An exception here (an unpark's) leaves the rest in reached, which failAll then fails.
        int woke = 0;
        try {
            for (int k = 0; k < reached.size(); k++) {
                int i = order == null ? k : order[k];
                LineWait w = reached.get(i);
                reached.set(i, null);
                if (w.signal()) {
                    woke++;
                    observe(w, held ? i : -1, now, afterSleep);
                }
            }
        } finally {
            completed += woke;
            counters.woke(woke);
            if (held) observed.addHeld(afterSleep);
            if (observed != null) observed.flush();
        }
        reached.clear();
    }

    /**
     * Queues the outcome of a wait this scan completed for its point's estimate ({@link ObservedRun}), or
     * holds it at {@code position} of a sorted scan ({@code -1}: queued now).
     */
    private void observe(LineWait w, int position, long now, boolean afterSleep) {
        if (observed == null || w.pointKey == null) return;
        // A late wake censors the residual (the estimator halves on it). When the OS overslept past
        // its allowance, the store may well have come after the planned wake: that says nothing
        // about the work, so it is not observed (a later exact wait still lowers the prediction).
        if (afterSleep && osLate) return;
        long residual = Math.max(0, now - w.startNanos);
        if (position < 0) observed.add(w.pointKey, residual, afterSleep);
        else observed.hold(position, w.pointKey, residual);
    }

    /**
     * Queries each busy slot's head at least every backstop: the port is the error authority. A head
     * its port says done while the word already shows it (a store since the snapshot) goes out with
     * every wait of its slot that word reached, settled as a scan's are: one query, not one a wait.
     */
    private void backstop(long now, boolean afterSleep) {
        int slotsReached = 0;
        slots:
        for (int s = 0; s < slots.length; s++) {
            SlotWaits set = slots[s];
            if (set.isEmpty() || now - lastQuery[s] < plan.backstopNanos()) continue;
            lastQuery[s] = now;
            LineWait head;
            while ((head = set.first()) != null) {
                counters.queried();
                boolean done;
                long asked = clock.nanos();
                boolean stores;
                String call = "query";
                try {
                    done = head.port().query();
                    call = "storesIntoLine";
                    stores = done && head.port().storesIntoLine(); // a query-only port writes no word
                } catch (Throwable e) { // a checked exception a port throws undeclared too (PortFault)
                    // A port that fails once the line closed (its stream could not store into it) fails by the
                    // close: the waits stay held, and the next snapshot fails them LineClosed with the watch.
                    if (line.isClosed()) break slots;
                    // Whatever the port threw ends its slot's waits, not the parker: a healthy line's waits
                    // must not fail ParkerDied for another port's bug (its StackOverflowError included, as
                    // FutureTask and CompletableFuture take any throwable of a task as its outcome).
                    portFailed(s, PortFault.coded(call, e));
                    break;
                }
                Warning blocks = slowQueries.booked(s, clock.nanos() - asked, head.port(), line.name(), "parker");
                if (blocks != null) warnings.accept(blocks); // outside the try: the sink's fault is not the port's
                if (!done) break;
                // The word is read while the wait is still held: a line closed under the backstop throws
                // LineClosed here, and the wait must stay where the drop of the closed line's watch fails
                // it; taken out first, nothing would signal or fail it, and its joiner would hang.
                long word;
                try {
                    word = stores ? line.word(head.descriptor().slot()) : 0;
                } catch (ReactorException e) {
                    if (e.code() != ErrorCode.LineClosed) throw e;
                    break slots; // held: the next snapshot fails and drops the closed line's watch
                }
                if (stores && MemoryDescriptor.reached(word, head.descriptor().target())) {
                    if (takeOut(set, word)) slotsReached++; // the head at least; then the new head is asked
                    continue;
                }
                set.pollFirst();
                waiting--;
                counters.deregistered();
                if (head.signal()) {
                    counters.woke();
                    completed++;
                    // Only the one who completed the wait warns (a platform joiner may race us to it).
                    if (stores) warnings.accept(Warning.of(ErrorCode.WordNeverWritten, head.descriptor()));
                }
            }
        }
        settle(now, afterSleep, slotsReached); // what earlier slots took out, a closed line's too
    }

    /** The port failed slot {@code s}: its waits fail with {@code e} (and JFR hears of it). */
    private void portFailed(int s, ReactorException e) {
        PortFailureEvent.emit(warnings, line.name(), s, slots[s].size(), e);
        failSlot(s, e);
    }

    private void failSlot(int s, ReactorException e) {
        SlotWaits set = slots[s];
        LineWait w;
        // Each wait out and counted out before it fails: a failing that throws (a completion stage out
        // of memory) and is tried again neither counts a wait twice nor misses one (ParkerDeath).
        while ((w = set.pollFirst()) != null) {
            waiting--;
            counters.deregistered();
            w.fail(e);
        }
    }

    /** Fails every wait held with {@code why}, and any a scan took out and had not handed over. */
    public void failAll(ReactorException why) {
        for (int s = 0; s < slots.length; s++) failSlot(s, why);
        for (LineWait w : reached) {
            if (w != null) w.fail(why); // already counted out by the scan
        }
        reached.clear();
        waiting = 0;
    }

    /**
     * The slot head that wants the parker awake first at {@code now} (nanoTime order), or null with no
     * waiters: a head still before its wake wants it then, one past it at its resume (its exact floor).
     */
    private LineWait earliestHead(long now) {
        LineWait first = null;
        long firstAt = 0;
        for (SlotWaits set : slots) {
            LineWait head = set.first();
            if (head == null) continue;
            long at = head.wakeAtNanos - now > 0 ? head.wakeAtNanos : head.resumeAtNanos;
            if (first == null || at - firstAt < 0) {
                first = head;
                firstAt = at;
            }
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

    /** The line this watch holds the waits of. */
    public CompletionLine line() { return line; }

    /** The words the next park compares against (the runner hands them to {@link SnapshotPark}). */
    long[] snapshotWords() { return snapshot; }

    /** The word of {@code slot} in the snapshot the next park compares against. */
    long parkedOn(Slot slot) { return snapshot[slot.index()]; }

    public int waiting() { return waiting; }

    /** Waits completed since the last call, and starts counting again. */
    int takeCompleted() {
        int n = completed;
        completed = 0;
        return n;
    }

    public long oversleepAllowanceNanos() { return oversleep.allowanceNanos(); }

    /** Waits held per slot (for tests and statistics). */
    public List<Integer> slotSizes() {
        List<Integer> out = new ArrayList<>();
        for (SlotWaits s : slots) out.add(s.size());
        return out;
    }
}
