package dev.gpureactor.core;

/**
 * The core's only source of time: monotonic nanoseconds from an origin the host chooses.
 *
 * <p>Every decision of the core (what to sleep, how long to park, when to query) reads time only
 * here, so a wait replays exactly under a {@link ManualClock}.
 */
@FunctionalInterface
public interface Clock {
    /**
     * Monotonic nanoseconds; never decreases.
     *
     * @return the time now, in nanoseconds from the clock's origin
     */
    long nanos();

    /** {@return the JVM's monotonic clock ({@link System#nanoTime()})} */
    static Clock system() {
        return SystemClock.INSTANCE;
    }

    /**
     * {@code later - earlier}, or 0 when {@code earlier} is later.
     *
     * @param later the later one
     * @param earlier the earlier one
     * @return the nanoseconds from {@code earlier} to {@code later}, at least 0
     */
    static long since(long later, long earlier) {
        return later - earlier > 0 ? later - earlier : 0;
    }

    /**
     * {@code at + d}, saturating at {@link Long#MAX_VALUE}.
     *
     * @param at the time, in nanoseconds of the clock
     * @param d the duration
     * @return the time {@code d} after {@code at}
     */
    static long after(long at, long d) {
        long r = at + d;
        return ((at ^ r) & (d ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    /** The system clock: {@link System#nanoTime()}. */
    enum SystemClock implements Clock {
        /** The one instance. */
        INSTANCE;

        @Override
        public long nanos() { return System.nanoTime(); }
    }
}
