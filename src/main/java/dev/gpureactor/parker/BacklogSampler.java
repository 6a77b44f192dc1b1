package dev.gpureactor.parker;

import dev.gpureactor.carrier.BacklogEvent;

/**
 * When a parker emits {@link BacklogEvent}: at most one event per {@link BacklogEvent#GAP_NANOS},
 * each carrying the flips into a backlog since the last one. Near its threshold a backlog flips
 * hundreds of times a second; one event per flip would flood a recording. Confined to the loop's
 * owner: plain fields that move with the loop, as the parker's phases do.
 */
final class BacklogSampler {
    /** When the last event was emitted ({@code System.nanoTime} scale; compared by difference, so it may wrap). */
    private long emittedAt;
    /** Flips counted since the last event, this one included. */
    private int flips;

    /** A sampler whose first flip emits at once. */
    BacklogSampler(long now) {
        emittedAt = now - BacklogEvent.GAP_NANOS;
    }

    /**
     * A flip into a backlog at {@code now}: the flips the event to emit now stands for, or 0 when the
     * last event is too recent (this flip is carried by the next one).
     */
    int flip(long now) {
        flips++;
        if (now - emittedAt < BacklogEvent.GAP_NANOS) return 0;
        int n = flips;
        flips = 0;
        emittedAt = now;
        return n;
    }
}
