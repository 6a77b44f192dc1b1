package dev.gpureactor.carrier;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The platform threads one part of a reactor started (a pool's carriers and its watch, a parker's threads), so
 * that the reactor's close can join them: when it returns, none of them still runs the library's code (a
 * server that closes the reactor and then its web application's class loader saw one load a class after
 * that). Only thread starts and the close touch it: a start records its thread and forgets those that ended.
 */
public final class OwnThreads {
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

    /** Records {@code t}, before it starts, and forgets the recorded threads that ended. {@return {@code t}} */
    public <T extends Thread> T add(T t) {
        threads.removeIf(x -> x.getState() == Thread.State.TERMINATED);
        threads.add(t);
        return t;
    }

    /**
     * Waits until every recorded thread but the caller has ended, until {@code deadlineNanos} ({@link System#nanoTime}).
     * An interrupt ends the wait and stays set: a close cannot throw it.
     *
     * @return whether they all ended
     */
    public boolean awaitEnded(long deadlineNanos) {
        for (Thread t : threads) {
            if (t == Thread.currentThread()) continue;
            try {
                if (!t.join(Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())))) return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (IllegalThreadStateException e) {
                // recorded, never started (the OS refused it): nothing to wait for
            }
        }
        return true;
    }
}
