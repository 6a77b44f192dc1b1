package dev.gpureactor.bench;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * How the simulated {@link BenchDevice} times its store. A GPU's store costs the host nothing and
 * comes at a time unrelated to the host's timers; a CPU thread standing in for it can have one of
 * those properties, not both, so the choice is stated with every run.
 *
 * <ul>
 *   <li>{@link #TIMER}: sleep in the OS until the store time, store when woken. No device CPU, but
 *       the store lands in a timer interrupt, and Linux runs every timer whose slack-widened expiry
 *       has come in the same interrupt: a poller's (or a parker's) {@code parkNanos} slice often
 *       ends right with the device's wake and sees the store at once. On the 2-core VM (at load ~4)
 *       this made a 50 µs {@code parkNanos} poll read 19 µs p50 at 1 ms waits instead of about 48.
 *   <li>{@link #EXACT}: sleep until 200 µs before the store time, then spin to it. The store comes
 *       at the exact time, unrelated to any interrupt, but the device occupies a core for up to
 *       200 µs before each store, which is when a deadline-plan parker wakes up; on a 2-core VM that
 *       delays the parker past the store and distorts the deadline plan (its estimator then reads
 *       the wait as late and halves its prediction).
 *   <li>{@link #RANDOM} (the default): sleep in the OS until the store time, then spin a uniformly
 *       random 0–100 µs before storing. The store leaves the interrupt's batch of timer wakes (the
 *       default timer slack is 50 µs), and the device's CPU comes after the store time, not before
 *       it. The waits are longer by the OS's oversleep plus 50 µs on average and a little less
 *       steady; the table shows the mean actual wait.
 * </ul>
 */
public enum DeviceTiming {
    TIMER, EXACT, RANDOM;

    static final long EXACT_LEAD_NANOS = 200_000;
    static final long RANDOM_SPIN_NANOS = 100_000;

    /** Waits until it is time to store for {@code at} (a {@link System#nanoTime()} value), as this timing does. */
    void waitFor(long at, Object blocker, BooleanSupplier closed) {
        long lead = this == EXACT ? EXACT_LEAD_NANOS : 0;
        long left;
        while ((left = at - lead - System.nanoTime()) > 0 && !closed.getAsBoolean()) LockSupport.parkNanos(blocker, left);
        long until = switch (this) {
            case TIMER -> System.nanoTime();
            case EXACT -> at;
            case RANDOM -> System.nanoTime() + ThreadLocalRandom.current().nextLong(RANDOM_SPIN_NANOS);
        };
        while (until - System.nanoTime() > 0 && !closed.getAsBoolean()) Thread.onSpinWait();
    }
}
