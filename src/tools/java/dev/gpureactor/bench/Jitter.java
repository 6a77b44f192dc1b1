package dev.gpureactor.bench;

/**
 * Which strategies get their wait lengths jittered.
 *
 * <p>A polling loop that starts when the wait starts checks at fixed offsets from the start
 * (about 1.08 ms apart for {@code Thread.sleep(1)} with Linux's default 50 µs timer slack), so
 * against a steady wait its latency is a fixed function of the wait length modulo its period: a
 * steady 1 ms wait whose store oversleeps by the same timer slack is seen ~20 µs after the store
 * every time, a 1.1 ms one a whole period after. GPU work has no phase relation to host timers,
 * so by default the pollers' waits get a uniform jitter of ±min(wait, 1 ms)/2, which judges them on
 * the average over phases, not on a coincidence. The event-driven strategies (the reactor, busy
 * spin, notify, the free-running watcher) do not depend on the phase and keep steady waits, which
 * the deadline plan's estimator is built for.
 */
public enum Jitter {
    /** Steady waits for everyone. */
    NONE,
    /** Jitter for the in-line polling loops ({@code park-poll}, {@code sleep-poll}) only: the default. */
    POLLERS,
    /** Jitter for every strategy (an unsteady workload). */
    ALL;

    /** The full width of the uniform jitter for {@code s} at wait length {@code waitNanos}; 0 for none. */
    long widthNanos(Strategy s, long waitNanos) {
        boolean applies = switch (this) {
            case NONE -> false;
            case POLLERS -> s == Strategy.PARK_POLL || s == Strategy.SLEEP_POLL;
            case ALL -> true;
        };
        return applies ? Math.min(waitNanos, 1_000_000) : 0;
    }
}
