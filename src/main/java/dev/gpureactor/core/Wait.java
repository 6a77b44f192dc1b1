package dev.gpureactor.core;

import java.util.OptionalLong;

/**
 * The wait driver: runs one {@link WaitPlan} against one {@link CompletionPort} on the calling
 * thread and returns the {@link Outcome} for the estimator.
 *
 * <ol>
 *   <li>{@code block}: the port's blocking wait, nothing else.
 *   <li>One query; already done ends the wait as {@link Outcome.Immediate}.
 *   <li>{@code flag}: arm the port (queue the word's store behind the work).
 *   <li>If the estimate asks for a sleep: sleep to start + sleep, then query; done is
 *       {@link Outcome.Late} (censored).
 *   <li>{@code poll}: query until done. {@code flag}: parks of at most park_ns each, with a query at
 *       least every backstop_ns; a park that saw the word is confirmed by the query. Both end as
 *       {@link Outcome.Exact}.
 * </ol>
 *
 * <p>Invariants: it never returns before the port said done; a port error ends the wait with that
 * error; it never sleeps longer than it was asked to (the estimate caps the ask at max_sleep).
 */
public final class Wait {
    private Wait() {}

    /**
     * Runs {@code plan} to the end on the calling thread (see the class comment).
     *
     * @param plan       the plan
     * @param port       the error authority, queried and (flag plans) armed
     * @param clock      the clock the wait is timed on
     * @param sleeper    how the thread sleeps to a deadline
     * @param sleepNanos the estimate's sleep before the first query after arming, or empty
     * @return how the wait ended, for the estimator
     * @throws InterruptedException if the thread is interrupted while it sleeps or parks
     */
    public static Outcome run(WaitPlan plan, CompletionPort port, Clock clock, Sleeper sleeper,
                              OptionalLong sleepNanos) throws InterruptedException {
        long start = clock.nanos();
        if (plan instanceof WaitPlan.Block) {
            port.block();
            return new Outcome.Blocked(Clock.since(clock.nanos(), start));
        }
        if (port.query()) return new Outcome.Immediate(Clock.since(clock.nanos(), start));
        if (plan instanceof WaitPlan.FlagWait) port.arm();
        if (sleepNanos.isPresent() && sleepNanos.getAsLong() > 0) {
            sleeper.sleepUntil(Clock.after(start, sleepNanos.getAsLong()));
            if (port.query()) return new Outcome.Late(Clock.since(clock.nanos(), start));
        }
        return switch (plan) {
            case WaitPlan.QueryPoll q -> {
                port.poll();
                yield new Outcome.Exact(Clock.since(clock.nanos(), start));
            }
            case WaitPlan.FlagWait f -> flag(f, port, clock, start);
            case WaitPlan.Block b -> throw new AssertionError("handled above");
        };
    }

    private static Outcome flag(WaitPlan.FlagWait f, CompletionPort port, Clock clock, long start)
            throws InterruptedException {
        long lastQuery = clock.nanos();
        while (true) {
            long now = clock.nanos();
            long toBackstop = Clock.after(lastQuery, f.backstopNanos()) - now;
            if (toBackstop <= 0) {
                if (port.query()) return new Outcome.Exact(Clock.since(clock.nanos(), start));
                lastQuery = clock.nanos();
                continue;
            }
            if (port.park(Math.min(f.parkNanos(), toBackstop))) {
                long seen = clock.nanos();
                port.poll();
                return new Outcome.Exact(Clock.since(seen, start));
            }
            if (Thread.interrupted()) throw new InterruptedException();
        }
    }
}
