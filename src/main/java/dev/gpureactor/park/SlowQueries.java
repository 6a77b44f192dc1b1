package dev.gpureactor.park;

import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.Durations;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Warning;

import java.time.Duration;

/**
 * How a thread that watches many waits (a parker, the std host's watcher) tells a port whose
 * {@link CompletionPort#query()} blocks: every wait that thread watches waits behind such a query, and
 * the contract says a query answers at once. A query that took at least {@link #SLOW_NANOS}
 * {@link #IN_ROW} times in a row on one key (a parker's slot; the watcher's backstop round) is a port
 * that blocks, and is warned {@link ErrorCode#SlowPort} once per watcher. In a row, because one slow query
 * is what a preempted thread on a loaded machine also shows; a port that blocks is slow at every query.
 *
 * <p>Owned by one thread at a time, as the watch that holds it; nothing here reads a clock (the caller
 * times the query with its own, so a parker's tests run it on a manual clock).
 */
public final class SlowQueries {
    /** A query this long is slow: a thousand times a driver's status query ({@code cuStreamQuery}: about 1 µs). */
    public static final long SLOW_NANOS = 1_000_000;
    /** Slow queries in a row on one key that make a port one that blocks. */
    public static final int IN_ROW = 3;

    /** Slow queries in a row, per key; reset by a query under {@link #SLOW_NANOS}. */
    private final int[] inRow;
    /** Whether this watcher warned already: once is enough to find the port, and a log line per backstop is not. */
    private boolean warned;

    /**
     * A count for {@code keys} keys (a parker's watch: one per slot).
     *
     * @param keys how many keys
     */
    public SlowQueries(int keys) {
        inRow = new int[keys];
    }

    /**
     * Books one query of key {@code key} that took {@code tookNanos}; returns the warning to give when this
     * query makes {@link #IN_ROW} slow ones in a row, and this watcher never warned (null otherwise).
     *
     * @param key the key (a slot's index)
     * @param tookNanos how long the query took
     * @param port the port asked
     * @param line the line's name
     * @param watcher who asked, as the warning names it ("parker", "watcher")
     * @return the warning to give, or null
     */
    public Warning booked(int key, long tookNanos, CompletionPort port, String line, String watcher) {
        if (tookNanos < SLOW_NANOS) {
            inRow[key] = 0;
            return null;
        }
        if (++inRow[key] < IN_ROW || warned) return null;
        warned = true;
        return Warning.of(ErrorCode.SlowPort, port.getClass().getName(), Durations.text(Duration.ofNanos(tookNanos)), line,
                IN_ROW, watcher);
    }
}
