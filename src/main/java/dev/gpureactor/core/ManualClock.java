package dev.gpureactor.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Virtual time for tests, simulation and replay: the time moves only when its owner moves it, and
 * every timer whose deadline is reached fires, in deadline order, as it moves. A run therefore
 * replays to the nanosecond.
 *
 * <p>Single-threaded by design, like the host that drives it; it is not safe to move from two
 * threads.
 */
public final class ManualClock implements Clock {
    private long now;
    private long nextId;
    private final TreeMap<Key, Runnable> timers = new TreeMap<>();

    private record Key(long at, long id) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(id, o.id);
        }
    }

    /** A clock at 0. */
    public ManualClock() { this(0); }

    /**
     * A clock at {@code startNanos}.
     *
     * @param startNanos the first reading
     */
    public ManualClock(long startNanos) { this.now = startNanos; }

    @Override
    public long nanos() { return now; }

    /**
     * Moves the clock forward by {@code d} ns and fires what came due.
     *
     * @param d the duration
     */
    public void advance(long d) {
        if (d < 0) throw new ReactorException(ErrorCode.InvalidArgument, "advance", d, ">= 0 ns");
        set(Clock.after(now, d));
    }

    /**
     * Moves the clock to {@code at} (never backwards) and fires what came due, in deadline order.
     *
     * @param at the time, in nanoseconds of the clock
     */
    public void set(long at) {
        if (at < now) throw new ReactorException(ErrorCode.InvalidArgument, "set", at, ">= now (" + now + ")");
        now = at;
        List<Runnable> due = new ArrayList<>();
        while (!timers.isEmpty() && timers.firstKey().at() <= now) {
            Map.Entry<Key, Runnable> e = timers.pollFirstEntry();
            due.add(e.getValue());
        }
        due.forEach(Runnable::run);
    }

    /**
     * Runs {@code action} when the clock reaches {@code at}; at once if it already has.
     *
     * @param at the time, in nanoseconds of the clock
     * @param action what to run
     */
    public void at(long at, Runnable action) {
        if (at <= now) {
            action.run();
        } else {
            timers.put(new Key(at, nextId++), action);
        }
    }

    /** {@return the earliest pending timer deadline, or {@link Long#MAX_VALUE} if none} */
    public long nextTimer() {
        return timers.isEmpty() ? Long.MAX_VALUE : timers.firstKey().at();
    }

    /**
     * {@return a sleeper that, instead of blocking, moves this clock to the deadline plus {@code overshootNanos}:
     * the test host's model of an OS sleep that wakes late}
     *
     * @param overshootNanos the overshoot, in nanoseconds
     */
    public Sleeper sleeper(long overshootNanos) {
        return at -> set(Math.max(now, Clock.after(at, overshootNanos)));
    }
}
