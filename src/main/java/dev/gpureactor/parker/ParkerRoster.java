package dev.gpureactor.parker;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * A reactor's parkers: which parker watches each line, how many lines each has, and the
 * registration of a wait with its line's parker against the reactor's close.
 */
public final class ParkerRoster {
    /** Each line's parker, for the line's life (a parker that died is replaced at the line's next registration). */
    private final ConcurrentHashMap<CompletionLine, LineParker> parkers = new ConcurrentHashMap<>();
    /** At most this many lines share a parker ({@link GpuReactor.Builder#linesPerParker}). */
    private final int linesPerParker;
    /**
     * Lines assigned to each parker that may take more: a line goes to the least loaded live one
     * with room, else to a new parker. Guarded by itself, as is each assignment's pair of updates
     * (this and {@code parkers}), so a parker is closed when its last line closes and never given
     * a line after that. In the order the parkers were made (LineParker keeps identity equality), so
     * a tie goes to the oldest: the same lines get the same parkers in every run.
     */
    private final LinkedHashMap<LineParker, Integer> load = new LinkedHashMap<>();
    /** The parkers in {@code load}, for the carriers' between-tasks look ({@link #lendTurns}): rewritten under {@code load}. */
    private volatile LineParker[] lenders = new LineParker[0];
    /**
     * Every parker made whose threads may not all have ended (those made since, or still running): the reactor's close
     * joins their threads, a parker's that left before it (its last line closed) too. Pruned as each parker is made.
     */
    private final Set<LineParker> made = ConcurrentHashMap.newKeySet();
    /** Makes a new parker, not yet started, for the line it is first given. */
    private final Function<CompletionLine, LineParker> newParker;
    private final PointTable<Object> points;
    /** Reads the reactor's volatile {@code closed}. */
    private final BooleanSupplier closed;
    /** Whether a registrar re-reads {@code closed} after its parker is in the map (false: {@code AwaitCloseNegativeControl}). */
    private final boolean rereadsClosed;

    public ParkerRoster(int linesPerParker, Function<CompletionLine, LineParker> newParker, PointTable<Object> points,
                 BooleanSupplier closed, ReactorControls controls) {
        this.linesPerParker = linesPerParker;
        this.newParker = newParker;
        this.points = points;
        this.closed = closed;
        this.rereadsClosed = !controls.skipsClosedRecheck();
    }

    /**
     * Registers {@code w} with the live parker of {@code line}; stops that parker if the reactor
     * closed meanwhile (see {@link GpuReactor#close()}).
     *
     * @throws ReactorException {@link ErrorCode#LineClosed} when the line closed under the registration
     */
    public void register(CompletionLine line, LineWait w) {
        LineParker parker = parkerFor(line);
        w.heldBy(parker.inbox); // before the offer: a withdrawal goes to this parker's removals
        parker.inbox.registerAndRecheck(w);
        if (rereadsClosed && closed.getAsBoolean()) { // close() may have taken its snapshot of the parkers before this one was made: see close()
            parkers.remove(line, parker);
            parker.inbox.close(new ReactorException(ErrorCode.ShutDown, "reactor"));
        }
    }

    /**
     * The live parker of {@code line}: the one it was assigned at its first registration, or, when
     * there is none or it left (closed, or died of an {@link Error}: its waiters failed with
     * {@link ErrorCode#ParkerDied}), the least loaded live parker with room for a line, else a new one.
     */
    private LineParker parkerFor(CompletionLine line) {
        LineParker p = parkers.get(line);
        if (p != null && p.isLive()) return p;
        boolean first;
        synchronized (load) {
            p = parkers.get(line);
            if (p != null && p.isLive()) return p;
            first = p == null;
            if (p != null) unassign(p); // died: the line takes a live parker
            p = leastLoaded();
            if (p == null) {
                p = newParker.apply(line);
                made.removeIf(q -> q.threads.allEnded());
                made.add(p);
                p.start();
            }
            load.merge(p, 1, Integer::sum);
            parkers.put(line, p);
            relist();
        }
        // Outside the lock: on a line that is already closed, onClose runs the listener at once,
        // which takes the lock and may close a parker (a bounded wait).
        if (first) line.onClose(this, ParkerRoster::lineClosed); // holds this roster, and so its reactor, weakly
        return p;
    }

    /** The live parker with the fewest lines, below {@link #linesPerParker}; null if none. Holds {@code load}. */
    private LineParker leastLoaded() {
        LineParker best = null;
        int fewest = linesPerParker;
        for (var it = load.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (!e.getKey().isLive()) {
                it.remove(); // died or closed: its lines move on at their next registration
                continue;
            }
            if (e.getValue() < fewest) {
                best = e.getKey();
                fewest = e.getValue();
            }
        }
        return best;
    }

    /** One line fewer on {@code p}; returns whether that was its last. Holds {@code load}. */
    private boolean unassign(LineParker p) {
        return load.computeIfPresent(p, (k, n) -> n == 1 ? null : n - 1) == null;
    }

    private void lineClosed(CompletionLine line) {
        LineParker current;
        boolean last;
        synchronized (load) {
            current = parkers.remove(line);
            last = current != null && unassign(current);
            relist();
        }
        ReactorException why = new ReactorException(ErrorCode.LineClosed, line.name(), "wait");
        if (current != null && last) {
            current.inbox.close(why); // its last line: the parker leaves (a registrar on it fails LineClosed)
        } else if (current != null) {
            current.inbox.closeLine(line, why); // its other lines go on
        }
        // The line's default readback points die with it: a process that makes lines as it goes
        // would otherwise grow the table by eight points per line, for ever.
        for (int s = 0; s < CompletionLine.WORDS; s++) points.forget(new SlotPoint(line, s));
    }

    /** Empties the roster for the reactor's close: every parker it held, each once (a parker may have several lines). */
    public Set<LineParker> takeAll() {
        Set<LineParker> all = Collections.newSetFromMap(new IdentityHashMap<>());
        synchronized (load) {
            all.addAll(parkers.values());
            parkers.clear();
            load.clear();
            relist();
        }
        return all;
    }

    /**
     * At the reactor's close, once every parker was closed: waits until the threads of every parker it made have ended,
     * at most {@code grace} in all. A closed parker leaves at once, unless its thread hosts a virtual thread that blocked pinned.
     */
    public void awaitLeft(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        for (LineParker p : made) if (!p.threads.awaitEnded(deadline)) return;
    }

    /** Rewrites {@link #lenders} from {@code load}. Holds {@code load}. */
    private void relist() { lenders = load.keySet().toArray(new LineParker[0]); }

    /**
     * A carrier between two tasks: each parker that sleeps out a polling park over a word that moved
     * lends it that turn ({@link LineParker#lendTurn}; a parker that left has its loan shut).
     */
    public void lendTurns() {
        for (LineParker p : lenders) p.lendTurn();
    }

    /** The line's current parker, or null. */
    public LineParker parkerOf(CompletionLine line) { return parkers.get(line); }

    /** Lines with a parker now. */
    public int lines() { return parkers.size(); }

    /** Lines whose parker is live. */
    public int liveParkers() {
        int n = 0;
        for (LineParker p : parkers.values()) if (p.isLive()) n++;
        return n;
    }
}
