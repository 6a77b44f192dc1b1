package dev.gpureactor.backend;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.MemoryDescriptor;

import java.util.concurrent.locks.LockSupport;

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
        return SpinThenPark.DEFAULT;
    }

    /**
     * Spins {@code spinNanos}, then parks in steps of at most {@code stepNanos}.
     *
     * @param spinNanos the spin, in nanoseconds
     * @param stepNanos the step, in nanoseconds
     * @return the park
     */
    static WordPark spinThenPark(long spinNanos, long stepNanos) {
        if (spinNanos < 0 || stepNanos <= 0) throw new IllegalArgumentException("spin >= 0 and step > 0 required");
        return new SpinThenPark(spinNanos, stepNanos);
    }

    /**
     * The default park: a short spin (the word is often about to land), then bounded OS parks.
     *
     * @param spinNanos the spin, in nanoseconds
     * @param stepNanos the step, in nanoseconds
     */
    record SpinThenPark(long spinNanos, long stepNanos) implements WordPark {
        static final SpinThenPark DEFAULT = new SpinThenPark(2_000, 50_000);

        @Override
        public boolean park(MemoryDescriptor word, long boundNanos) throws InterruptedException {
            if (word.isComplete()) return true;
            long start = System.nanoTime();
            long end = Clock.after(start, Math.max(0, boundNanos));
            long spinEnd = Clock.after(start, Math.min(spinNanos, Math.max(0, boundNanos)));
            while (System.nanoTime() - spinEnd < 0) {
                Thread.onSpinWait();
                if (word.isComplete()) return true;
            }
            while (true) {
                long left = end - System.nanoTime();
                if (left <= 0) return word.isComplete();
                LockSupport.parkNanos(Math.min(left, stepNanos));
                if (Thread.interrupted()) throw new InterruptedException();
                if (word.isComplete()) return true;
            }
        }
    }
}
