package dev.gpureactor.core;

/**
 * How a waiting thread sleeps to a deadline on its {@link Clock}. Returning early is allowed (the
 * caller re-reads the clock); sleeping past the deadline is the host's oversleep, which the
 * estimator sees as a late wake.
 */
@FunctionalInterface
public interface Sleeper {
    /**
     * Sleeps until {@code atNanos} on the caller's clock, or less.
     *
     * @param atNanos the deadline
     * @throws InterruptedException if the thread is interrupted while it sleeps
     */
    void sleepUntil(long atNanos) throws InterruptedException;

    /**
     * {@link java.util.concurrent.locks.LockSupport#parkNanos} to the deadline of the system clock.
     *
     * @return the sleeper on {@code LockSupport.parkNanos}
     */
    static Sleeper system() {
        return at -> {
            long left;
            while ((left = at - System.nanoTime()) > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(left);
                if (Thread.interrupted()) throw new InterruptedException();
            }
        };
    }
}
