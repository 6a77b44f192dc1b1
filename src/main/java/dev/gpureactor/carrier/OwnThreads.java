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

    /** {@return whether every recorded thread has ended} */
    public boolean allEnded() {
        for (Thread t : threads) if (t.getState() != Thread.State.TERMINATED) return false;
        return true;
    }

    /**
     * Waits until every recorded thread but the caller has ended, until {@code deadlineNanos} ({@link System#nanoTime}),
     * looking again after each pass: a thread may start another as it leaves (a parker hands its loop on). A recorded
     * thread not yet started is waited for too. An interrupt ends the wait and stays set: a close cannot throw it.
     *
     * @return whether they all ended
     */
    public boolean awaitEnded(long deadlineNanos) {
        for (boolean again = true; again; ) {
            again = false;
            for (Thread t : threads) {
                Thread.State state = t.getState();
                if (t == Thread.currentThread() || state == Thread.State.TERMINATED) continue;
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) return false;
                again = true;
                try {
                    if (state == Thread.State.NEW) Thread.sleep(Duration.ofNanos(Math.min(left, 100_000))); // about to start
                    else t.join(Duration.ofNanos(left));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                } catch (IllegalThreadStateException e) {
                    // started and ended between the two reads: the next pass sees it ended
                }
            }
        }
        return true;
    }
}
