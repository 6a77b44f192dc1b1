package dev.gpureactor.parker;

/**
 * When a parker emits an event of something that can happen thousands of times a second (a flip
 * into a carrier backlog, a relief of a hosting thread): at most one event per {@link #GAP_NANOS},
 * each carrying how many occurrences it stands for. One event per occurrence would flood a
 * recording (a backlog near its threshold flips hundreds of times a second; a relief comes with every
 * hosted wake, thousands). Confined to
 * the loop's owner: plain fields that move with the loop, as the parker's phases do.
 */
final class EventSampler {
    /** The least time between two events of one sampler (the occurrences between are counted, not emitted). */
    static final long GAP_NANOS = 1_000_000_000L;

    /** When the last event was emitted ({@code System.nanoTime} scale; compared by difference, so it may wrap). */
    private long emittedAt;
    /** Occurrences counted since the last event, this one included. */
    private int count;

    /** A sampler whose first occurrence emits at once. */
    EventSampler(long now) {
        emittedAt = now - GAP_NANOS;
    }

    /**
     * An occurrence at {@code now}: how many occurrences the event to emit now stands for, or 0 when
     * the last event is too recent (this one is carried by the next).
     */
    int occurred(long now) {
        count++;
        if (now - emittedAt < GAP_NANOS) return 0;
        int n = count;
        count = 0;
        emittedAt = now;
        return n;
    }

    /** The occurrences no event carries yet, now taken (the owner leaves: a last event carries them). */
    int takeUncarried() {
        int n = count;
        count = 0;
        return n;
    }
}
