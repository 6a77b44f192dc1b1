package dev.gpureactor.core;

import java.util.concurrent.locks.LockSupport;

/**
 * One wait on device work, as a backend offers it. The core names no vendor.
 *
 * <p>The word says "done"; only the status {@link #query()} (or {@link #block()}) says "failed": it is
 * the <em>error authority</em>, asked every backstop. A parker completes a wait as soon as its word is
 * reached (the device stores it behind the work, in stream order), without waiting for the query to
 * agree; a query that says done completes a wait whose word never arrived, with the coded warning
 * {@link ErrorCode#WordNeverWritten}. A thread that runs a flag plan itself (the {@code naive} kind, a
 * platform joiner) confirms a word it saw with the query before it completes the wait. Errors are
 * {@link ReactorException}s, typically {@link ErrorCode#Backend} with the driver's error name.
 */
public interface CompletionPort {
    /**
     * Answers at once: {@code true} done, {@code false} pending; throws when the work failed. It must
     * not block: it runs on a parker thread (or a carrier lending it a turn) that watches every wait
     * of its lines, so a query that blocks for a second delays all of them by as much, and their end
     * at the reactor's close too (the close itself returns after its grace, warning
     * {@link ErrorCode#LiveAtClose} of their joiners; the parker ends those waits once the query
     * returns). A port whose queries take a millisecond or more three times in a row is warned
     * {@link ErrorCode#SlowPort}, once per parker or watcher. What it throws fails only this port's waits.
     *
     * @return {@code true} when the work is done; a failed stream throws
     */
    boolean query();

    /**
     * The vendor's blocking wait ({@code cuStreamSynchronize}); returns when done, throws when failed.
     *
     * @throws InterruptedException if interrupted while blocked
     */
    void block() throws InterruptedException;

    /** Queues the device's store of the completion word behind the pending work. */
    void arm();

    /**
     * {@return whether the device stores this port's completion word: true by default; false for a port
     * that only queries (a device without stream memory operations), whose word is never written, so
     * that a query saying done is no {@link ErrorCode#WordNeverWritten}}
     */
    default boolean storesIntoLine() { return true; }

    /**
     * {@return a bounded park on the completion word: returns {@code true} once the word reached its target,
     * {@code false} when the bound passed (or early, which is allowed)}
     *
     * @param boundNanos the bound, in nanoseconds
     * @throws InterruptedException if interrupted while parked
     */
    boolean park(long boundNanos) throws InterruptedException;

    /**
     * Queries until done, yielding the CPU between queries: a virtual thread leaves its carrier
     * between queries (the shortest timed park), so the carrier's other virtual threads run
     * meanwhile; a platform thread spins ({@link Thread#onSpinWait()}).
     *
     * @throws InterruptedException if interrupted while polling
     */
    default void poll() throws InterruptedException {
        boolean virtual = Thread.currentThread().isVirtual();
        while (!query()) {
            if (Thread.interrupted()) throw new InterruptedException();
            // A virtual thread that spun would hold its carrier for the whole wait. Not Thread.yield():
            // on JDK 25 a yielder is taken again ahead of threads submitted from outside, starving them.
            if (virtual) LockSupport.parkNanos(1); else Thread.onSpinWait();
        }
    }
}
