package dev.gpureactor.parker;

/**
 * What one turn of a parker's loop decided: how its thread waits next ({@link LineWatch#next} for
 * one line, combined over a parker's lines by {@link LineGroup#next}).
 * A value, so the decision is tested on a manual clock without a thread; the runner
 * ({@link LineParker}) performs it.
 */
public sealed interface Turn {
    /** No waiters: sleep in the OS until a registration, removal or close wakes the thread. */
    record Idle() implements Turn { }

    /** OS sleep to {@code at} (nanoTime), the earliest predicted wake or backstop; a registration cuts it short. */
    record Sleep(long at) implements Turn { }

    /**
     * A bounded park on the line, returning as soon as a word differs from the turn's snapshot.
     *
     * @param bound nanoseconds at most (the plan's park bound or the next backstop, whichever is first)
     * @param spin  of those, how many the park may burn spinning (0: sleep in slices, or the hardware park)
     */
    record Park(long bound, long spin) implements Turn { }

    /** The last waiter just settled: turn again at once (new registrations may have come). */
    record Again() implements Turn { }

    Idle IDLE = new Idle();
    Again AGAIN = new Again();
}
