package dev.gpureactor.core;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One slice of the pure-Java park: spin a while with {@link Thread#onSpinWait()} (a store is often
 * about to land), then sleep once with {@link LockSupport#parkNanos}, within a bound. The park layer's
 * {@code FallbackPark} (one slice per call, on a line) and the backend's {@code WordPark.spinThenPark}
 * (slices until a word or the bound) both run this code. An {@link LockSupport#unpark} or an interrupt
 * ends the sleep; the interrupt status stays set for the caller. All synchronisation is in
 * {@code ready}; the spin and the sleep only decide when to ask it again.
 */
public final class SpinSlice {
    private SpinSlice() { }

    /**
     * Asks {@code ready}, spins up to {@code spinNanos} asking it, then sleeps once for up to
     * {@code sliceNanos}, all within {@code boundNanos}; returns {@code ready}'s last answer.
     *
     * @param spinNanos  how long to spin before sleeping; 0 for none
     * @param sliceNanos the longest sleep
     * @param boundNanos the longest the whole slice may take; nothing is waited when it is not positive
     * @param ready      whether the wait is over
     * @param blocker    the object the sleeping thread is parked on, for tools; may be null
     * @return {@code ready}'s last answer
     */
    public static boolean park(long spinNanos, long sliceNanos, long boundNanos, BooleanSupplier ready, Object blocker) {
        if (ready.getAsBoolean()) return true;
        if (boundNanos <= 0) return false;
        final long start = System.nanoTime();
        final long spin = Math.min(spinNanos, boundNanos);
        while (System.nanoTime() - start < spin) {
            Thread.onSpinWait();
            if (ready.getAsBoolean()) return true;
        }
        long left = boundNanos - (System.nanoTime() - start);
        if (left > 0) LockSupport.parkNanos(blocker, Math.min(sliceNanos, left));
        return ready.getAsBoolean();
    }
}
