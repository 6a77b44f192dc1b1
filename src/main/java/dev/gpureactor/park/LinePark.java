package dev.gpureactor.park;

import dev.gpureactor.core.CompletionLine;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * A bounded wait for a {@link CompletionLine} to reach a state: the hardware {@link WordWait} or the
 * pure-Java {@link FallbackPark}. Both keep the same contract, so a parker holds one and need not know
 * which.
 *
 * <p><b>Contract of {@link #park}.</b> Returns {@code true} only when {@code ready} held on its last
 * evaluation, which is also the last thing a park does before it returns {@code true}. It always
 * returns: at the latest when {@code bound} has passed (plus one OS or hardware wake). It may return
 * {@code false} early (a store that left {@code ready} false, an unpark, an interrupt, a spurious wake);
 * the caller re-evaluates and parks again. {@code ready} must be cheap, must not block, and should read the
 * line only through its atomic accessors; a park never clears the thread's interrupt status.
 *
 * <p><b>Memory ordering.</b> {@code ready} reads the line with acquire loads ({@link CompletionLine#word}),
 * so a {@code true} result happens-after the store that made it true, and after everything the storing
 * agent wrote before its release store.
 */
public sealed interface LinePark permits WordWait, FallbackPark {
    /** Parks until {@code ready} holds or {@code boundNanos} pass; see the class comment. */
    boolean park(CompletionLine line, Predicate<? super CompletionLine> ready, long boundNanos);

    /** {@link #park(CompletionLine, Predicate, long)} with the bound as a {@link Duration}. */
    default boolean park(CompletionLine line, Predicate<? super CompletionLine> ready, Duration bound) {
        long nanos;
        try {
            nanos = bound.toNanos();
        } catch (ArithmeticException tooLong) {
            nanos = bound.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return park(line, ready, nanos);
    }

    /** What this park runs, for {@code gar probe} and logs. */
    String describe();
}
