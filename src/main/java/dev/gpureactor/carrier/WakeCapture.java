package dev.gpureactor.carrier;

/**
 * A thread that may keep, to run itself, a task its pool is given on it: the parker's thread during a
 * turn, so the virtual thread its scan woke runs where the store was seen (hosting). {@link
 * CarrierPool#execute} offers the task here first when the calling thread is one.
 */
public interface WakeCapture {
    /**
     * Keeps {@code task} if this thread is capturing for {@code pool} and has no task kept yet.
     *
     * @param pool the pool given the task
     * @param task the task
     * @return whether this thread kept it (the pool then neither queues it nor wakes a carrier)
     */
    boolean capture(CarrierPool pool, Runnable task);
}
