package dev.gpureactor.carrier;

import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The carrier threads behind a {@link CarrierPool}: where its admitted tasks run. The pool owns the
 * lifecycle (what is admitted, when carriers may leave); a {@code Carriers} only runs what it is
 * given, through {@link CarrierPool#runTask}, and leaves when {@link #retire retired}.
 * {@link ForkJoinCarriers} are the carriers; {@link QueuedCarriers} is a queue with no thread, whose
 * tasks a test runs by hand (jcstress plays the carriers).
 */
public sealed interface Carriers permits ForkJoinCarriers, QueuedCarriers {
    /** Runs {@code task} on a carrier soon; never blocks (the JDK calls it with the submitter pinned). */
    void push(Runnable task);

    /**
     * Runs every task of {@code tasks} on a carrier soon, in about that order; never blocks. The
     * array is the carriers' from now on. One push for the lot: see {@link ForkJoinCarriers#pushAll}.
     * Returns how many of the first tasks it pushed: all, unless an {@code OutOfMemoryError} stopped it
     * (the rest were not pushed, and the pool pushes them again: {@link CarrierPool#resumeAll}).
     */
    int pushAll(Runnable[] tasks);

    /** {@link #push}es each of {@code tasks} in order; returns how many it pushed before an {@code OutOfMemoryError}, if one came. */
    default int pushEach(Runnable[] tasks) {
        int pushed = 0;
        try {
            for (Runnable t : tasks) {
                push(t);
                pushed++;
            }
        } catch (OutOfMemoryError e) {
            // the rest are pushed again, one by one (CarrierPool.resumeAll)
        }
        return pushed;
    }

    /**
     * Takes one admitted task that still waits for a carrier, pushed by a thread that is no carrier,
     * for the caller to run through {@link CarrierPool#runTask} ({@link CarrierPool#runWaiting}); null
     * when none waits. Never blocks; a task is taken once, by this or by a carrier.
     */
    Runnable takeWaiting();

    /** What each carrier runs between two tasks ({@link CarrierPool#betweenTasks}); none by default (no carrier threads). */
    default void betweenTasks(Runnable look) { }

    /** Called once, when nothing is queued or running and nothing can be admitted any more: carriers leave. */
    void retire();

    /** Waits up to {@code timeout} for every carrier thread to have left after {@link #retire}. */
    boolean awaitExit(long timeout, TimeUnit unit) throws InterruptedException;

    /** The parallelism: carriers that run at once when none is blocked. */
    int size();

    /**
     * Carriers that can run a task now: the parallelism, plus one spare per blocked carrier compensated
     * now (the JDK's and the watch's compensations). Racy and cheap: a parker asks it every turn.
     */
    default int running() { return size(); }

    /** Carrier threads alive now, compensating and idle ones included. */
    int threads();

    boolean isCarrier(Thread t);

    /** Carrier time spent not running tasks, summed over carriers. */
    long idleNanos();

    /** Every carrier's {@link CarrierTally}, those of carriers that left included (their counts stay). */
    Iterable<CarrierTally> tallies();

    /** Each carrier thread alive now with its tally: the {@link CarrierWatch}'s view (racy, as the tallies). */
    void forEachCarrier(BiConsumer<Thread, CarrierTally> each);

    /** Whether the JDK compensates {@code carrier} now (a blocking call it wraps is under way there). */
    boolean jdkCompensating(Thread carrier);

    /**
     * Lets one more carrier run while one is blocked: activates an idle one or starts one, up to the
     * maximum size. Returns the value {@link #endBlock} takes (0: saturated, nothing compensated).
     * The {@link CarrierWatch}'s, for blocks the JDK does not compensate; never blocks.
     */
    long beginBlock();

    /** Gives back one {@link #beginBlock}. */
    void endBlock(long post);

    /** Tasks queued and not yet taken by a carrier (a racy count, for the watch). */
    int queued();
}
