package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;

/**
 * How a parker waits on its line between scans: until any word differs from {@code snapshot}, or
 * the bound passes, whichever is first. It may return early; it must be bounded. A hardware word
 * wait or the pure-Java fallback of {@code dev.gpureactor.park} sits behind it.
 */
@FunctionalInterface
interface LinePark {
    void park(CompletionLine line, long[] snapshot, long boundNanos);
}
