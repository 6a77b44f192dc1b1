package dev.gpureactor.loom;

import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The carrier threads behind a {@link CarrierPool}: where its admitted tasks run. The pool owns the
 * lifecycle (what is admitted, when carriers may leave); a {@code Carriers} only runs what it is
 * given, through {@link CarrierPool#runTask}, and leaves when {@link #retire retired}.
 */
sealed interface Carriers permits SharedFifoCarriers, ForkJoinCarriers {
    /** Runs {@code task} on a carrier soon; never blocks (the JDK calls it with the submitter pinned). */
    void push(Runnable task);

    /** Called once, when nothing is queued or running and nothing can be admitted any more: carriers leave. */
    void retire();

    /** Waits up to {@code timeout} for every carrier thread to have left after {@link #retire}. */
    boolean awaitExit(long timeout, TimeUnit unit) throws InterruptedException;

    /** Carrier threads this pool runs (its parallelism). */
    int size();

    boolean isCarrier(Thread t);

    /** Carrier time spent not running tasks, summed over carriers. */
    long idleNanos();

    /** Every carrier's {@link CarrierTally}, those of carriers that left included (their counts stay). */
    Iterable<CarrierTally> tallies();

    /** Each carrier thread alive now with its tally: the {@link CarrierWatch}'s view (racy, as the tallies). */
    void forEachCarrier(BiConsumer<Thread, CarrierTally> each);

    /**
     * Runs {@code extra} carriers beyond {@link #size()} from now on, while they find work: the
     * {@link CarrierWatch}'s compensation for carriers blocked by a pinned virtual thread or in the OS (0: none
     * any more). Called by the watch thread only; never blocks.
     */
    void compensate(int extra);
}
