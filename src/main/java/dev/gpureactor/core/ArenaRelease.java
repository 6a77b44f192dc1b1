package dev.gpureactor.core;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Closes a shared {@link Arena} that a native call may still hold, waiting the call out.
 *
 * <p>Closing a shared arena stops every Java access to its segments (a thread in the middle of one
 * gets {@link IllegalStateException}), but a downcall that was passed one of its segments holds
 * the arena for the length of the call, and {@link Arena#close()} then fails with {@link
 * IllegalStateException} instead. A native park on a line is bounded, so the close is retried with
 * backoff (10 µs doubling to 1 ms) until the call returned or {@code limit} passed. Only after a
 * successful close may the memory behind a segment of the arena be freed; when the limit passes the
 * arena stays open and the caller must leak the memory (with the coded warning {@link
 * ErrorCode#LineLeaked}), never free it.
 */
public final class ArenaRelease {
    private static final long FIRST_BACKOFF_NANOS = 10_000;
    private static final long MAX_BACKOFF_NANOS = 1_000_000;

    private ArenaRelease() {}

    /**
     * Closes {@code arena}, retrying while a native call holds it.
     *
     * @param arena the arena
     * @param limit the limit
     * @return {@code true} when the arena is closed (no thread can touch its segments any more);
     *     {@code false} when a call still held it after {@code limit} (it stays open)
     */
    public static boolean close(Arena arena, Duration limit) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(limit, "limit");
        // Saturated: a limit past a long of nanoseconds is no limit (toNanos() would throw).
        long deadline = System.nanoTime() + Math.min(TimeUnit.NANOSECONDS.convert(limit), Long.MAX_VALUE / 4);
        long backoff = FIRST_BACKOFF_NANOS;
        boolean interrupted = false;
        try {
            while (true) {
                if (!arena.scope().isAlive()) return true;
                try {
                    arena.close();
                    return true;
                } catch (IllegalStateException held) {
                    // acquired by a downcall in flight: wait for it to return, never free under it
                    if (!arena.scope().isAlive()) return true;
                }
                if (System.nanoTime() - deadline >= 0) return false;
                LockSupport.parkNanos(backoff);
                if (Thread.interrupted()) interrupted = true; // finish the close; the interrupt is kept
                backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }
}
