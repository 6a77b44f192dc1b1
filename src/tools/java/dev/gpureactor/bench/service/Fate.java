package dev.gpureactor.bench.service;

import java.util.concurrent.TimeUnit;

/**
 * What a client does to a request besides waiting for its answer, as real clients do: with fates
 * on, 1 in {@value #EVERY} requests (ids {@code 39, 79, 119, ...}) times out, is cancelled, or has
 * its handler interrupted, in that turn. A request's fate is fixed by its id alone, so every mode
 * of a run sees the same fates on the same requests, and the client knows the answer to expect.
 */
enum Fate {
    /** Answered with its payload. */
    NONE(""),
    /** The handler waits at most {@link #TIMEOUT_NANOS} and answers {@code timeout}; the wait stays pending. */
    TIMEOUT("timeout"),
    /** The client side cancels the wait {@link #ACT_AFTER_NANOS} into it; the handler answers {@code cancelled}. */
    CANCEL("cancelled"),
    /** The client side interrupts the waiting handler {@link #ACT_AFTER_NANOS} into its wait; it answers {@code interrupted}. */
    INTERRUPT("interrupted");

    /** One request in this many has a fate. */
    static final int EVERY = 40;
    /** The timed-out request's limit: well under the 0.5 ms the shortest work takes. */
    static final long TIMEOUT_NANOS = TimeUnit.MICROSECONDS.toNanos(300);
    /** How far into the wait the client side cancels or interrupts. */
    static final long ACT_AFTER_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    /** The word the answer carries in place of the payload when the fate is met. */
    final String answer;

    Fate(String answer) { this.answer = answer; }

    /** Request {@code id}'s fate; {@link #NONE} when fates are off. */
    static Fate of(long id, boolean on) {
        if (!on || id < 0 || id % EVERY != EVERY - 1) return NONE;
        return switch ((int) (id / EVERY % 3)) {
            case 0 -> TIMEOUT;
            case 1 -> CANCEL;
            default -> INTERRUPT;
        };
    }
}
