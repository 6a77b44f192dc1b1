package dev.gpureactor.loom;

import java.time.Duration;

/**
 * The reactor's own carrier pool, as a user may watch it ({@link GpuReactor#carriers()}): how many carriers
 * run, how many virtual threads live on them, and whether they have left after close. {@link RunStats} has
 * the same figures with the parkers'; this view adds the wait for the carriers to leave.
 *
 * <p><b>Threads.</b> Every method may be called from any thread; each reads the pool's counts once.
 */
public interface CarrierView {
    /**
     * The parallelism: carriers that run at once when none is blocked.
     *
     * @return the carrier count the pool was made with ({@link GpuReactor.Builder#carriers})
     */
    int size();

    /**
     * Carrier threads alive now: the parallelism, give or take idle carriers that left and spares that stand
     * in for blocked ones.
     *
     * @return the carrier threads alive now
     */
    int threads();

    /**
     * Virtual threads of the pool that began running and have not ended, parked ones included, and
     * those the pool adopted (a pool thread's own {@code Thread.ofVirtual()} children, counted from
     * the end of their first run). A thread started but still waiting for its first carrier is
     * counted in {@link #queueDepth()} until it runs.
     *
     * @return the live threads, parked ones included
     */
    int liveThreads();

    /**
     * Tasks (started or woken virtual threads, callbacks) waiting for a carrier now, approximately.
     *
     * @return the queue depth
     */
    int queueDepth();

    /**
     * Spare carriers started to stand in for carriers blocked where the JDK does not compensate (pinned, or in
     * an unwrapped blocking call).
     *
     * @return the compensations over the pool's life
     */
    long compensations();

    /**
     * Waits up to {@code timeout} for the carriers to have left (after the reactor's close, once no virtual
     * thread of the pool lives).
     *
     * @param timeout how long to wait
     * @return whether they left in time
     * @throws InterruptedException if interrupted while waiting
     */
    boolean awaitExit(Duration timeout) throws InterruptedException;
}
