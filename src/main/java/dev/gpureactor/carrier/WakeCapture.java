package dev.gpureactor.carrier;

/**
 * A thread that may capture the tasks its pool is given on it: the parker's thread during a turn,
 * which runs the first virtual thread its scan woke where the store was seen (hosting) and pushes
 * the others to the carriers together after the scan. {@link CarrierPool#execute} offers the task
 * here first when the calling thread is one.
 */
public interface WakeCapture {
    /**
     * Captures {@code task} if this thread is capturing for {@code pool}: it then runs it itself or
     * pushes it to the carriers later ({@link CarrierPool#resumes}), exactly once.
     *
     * @param pool the pool given the task
     * @param task the task
     * @return whether this thread took it (the pool then neither queues it nor wakes a carrier now)
     */
    boolean capture(CarrierPool pool, Runnable task);
}
