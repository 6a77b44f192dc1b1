package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;

/**
 * How a parker waits on its line between scans: until any word differs from {@code snapshot}, or
 * the bound passes, whichever is first. It may return early; it must be bounded. A hardware word
 * wait or the pure-Java fallback of {@code dev.gpureactor.park} sits behind it.
 *
 * <p>{@code spinNanos} is how much of the bound the parker is willing to burn spinning: it is
 * non-zero only around a predicted completion, where a spinning waiter wakes in well under a
 * microsecond and a sleeping one costs tens. A hardware park ignores it (it sleeps in the core).
 */
@FunctionalInterface
interface LinePark {
    void park(CompletionLine line, long[] snapshot, long boundNanos, long spinNanos);
}
