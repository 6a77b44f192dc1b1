package dev.gpureactor.core;

/**
 * How one wait ended, as the deadline estimator needs to know it. Times are from the wait's start.
 */
public sealed interface Outcome {
    /**
     * The first query found the work already done: an exact (tiny) residual.
     *
     * @param residualNanos the residual, in nanoseconds
     */
    record Immediate(long residualNanos) implements Outcome {}

    /**
     * A park or poll that was running when the work finished saw it: an exact residual.
     *
     * @param residualNanos the residual, in nanoseconds
     */
    record Exact(long residualNanos) implements Outcome {}

    /**
     * The first query after the deadline sleep found the work done: the true residual is unknown
     * but at most {@code wokeNanos} (censored).
     *
     * @param wokeNanos the woke, in nanoseconds
     */
    record Late(long wokeNanos) implements Outcome {}

    /**
     * The vendor's blocking wait returned; it says nothing the estimator can use.
     *
     * @param elapsedNanos the elapsed, in nanoseconds
     */
    record Blocked(long elapsedNanos) implements Outcome {}

    /**
     * Time from the wait's start to when the waiter knew the work was done.
     *
     * @return the elapsed time, in nanoseconds
     */
    default long elapsedNanos() {
        return switch (this) {
            case Immediate i -> i.residualNanos();
            case Exact e -> e.residualNanos();
            case Late l -> l.wokeNanos();
            case Blocked b -> b.elapsedNanos();
        };
    }
}
