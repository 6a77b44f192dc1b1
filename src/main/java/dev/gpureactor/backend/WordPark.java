package dev.gpureactor.backend;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.SpinSlice;

/**
 * How a port parks on its completion word: {@link dev.gpureactor.core.CompletionPort#park}
 * delegates here. The park layer (a hardware wait on the line) plugs in through this interface; the
 * default is {@link #spinThenPark()}, pure Java.
 *
 * <p>Contract: return {@code true} once the word reached its target (read with acquire), {@code
 * false} when the bound passed; returning early is allowed; an interrupt throws.
 */
@FunctionalInterface
public interface WordPark {
    /**
     * Parks until {@code word} is reached or {@code boundNanos} passed.
     *
     * @param word the descriptor to wait on
     * @param boundNanos the longest park, in nanoseconds
     * @return {@code true} once the word reached its target
     * @throws InterruptedException if interrupted
     */
    boolean park(MemoryDescriptor word, long boundNanos) throws InterruptedException;

    /**
     * Spins about 2 µs, then parks in steps of at most 50 µs until the word or the bound.
     *
     * @return the park
     */
    static WordPark spinThenPark() {
        return spinThenPark(2_000, 50_000);
    }

    /**
     * Spins {@code spinNanos}, then parks in steps of at most {@code stepNanos} until the word or the
     * bound: {@link SpinSlice} slices, the first with the spin (the word is often about to land).
     *
     * @param spinNanos how long to spin first; 0 for none
     * @param stepNanos the longest OS park of one step, at least 1
     * @return the park
     */
    static WordPark spinThenPark(long spinNanos, long stepNanos) {
        if (spinNanos < 0) throw new ReactorException(ErrorCode.InvalidArgument, "spinNanos", spinNanos, ">= 0");
        if (stepNanos < 1) throw new ReactorException(ErrorCode.InvalidArgument, "stepNanos", stepNanos, ">= 1");
        return (word, boundNanos) -> {
            long end = Clock.after(System.nanoTime(), Math.max(0, boundNanos));
            for (long spin = spinNanos; ; spin = 0) {
                if (SpinSlice.park(spin, stepNanos, end - System.nanoTime(), word::isComplete, null)) return true;
                if (Thread.interrupted()) throw new InterruptedException();
                if (end - System.nanoTime() <= 0) return word.isComplete();
            }
        };
    }
}
