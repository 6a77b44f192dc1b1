package dev.gpureactor.loom;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The stage adapter of a {@link GpuFuture}: how its internal stage (made and completed by the future,
 * docs/DESIGN.md §5 "stage vs settle") is completed, copied for each caller, and kept off the parker.
 */
final class FutureStage {
    private FutureStage() { }

    /**
     * A new stage completed with {@code internal}'s outcome, the same value or the same exception (a
     * {@link CancellationException} keeps the copy cancelled): what a caller may change is its copy alone.
     */
    static <T> CompletableFuture<T> copyOf(CompletableFuture<T> internal) {
        CompletableFuture<T> copy = new CompletableFuture<>();
        internal.whenComplete((v, t) -> {
            if (t == null) copy.complete(v);
            else copy.completeExceptionally(t); // the same exception: a CancellationException keeps the copy cancelled
        });
        return copy;
    }

    /**
     * Completes {@code s} with terminal state {@code state}'s outcome (read after the acquire load that
     * saw it); a cancelled wait's stage is cancelled, as the wait: {@code isCancelled()}, {@code state()} CANCELLED.
     */
    static <T> void complete(CompletableFuture<T> s, int state, T value, Throwable failure) {
        if (state == GpuFuture.COMPLETED) s.complete(value);
        else if (state == GpuFuture.CANCELLED) s.completeExceptionally(cancellation(failure));
        else if (state > GpuFuture.COMPLETED) s.completeExceptionally(failure);
    }

    /** How a cancelled wait is reported as the JDK reports one: a {@link CancellationException} whose cause is the coded {@code Cancelled}. */
    static CancellationException cancellation(Throwable coded) {
        CancellationException c = new CancellationException(coded.getMessage());
        c.initCause(coded);
        return c;
    }

    /**
     * Runs {@code task} on {@code callbacks}; if it refuses (closed), on a new virtual thread of the
     * JDK's scheduler, so a stage is completed even after its reactor closed.
     */
    static void dispatch(Executor callbacks, Runnable task) {
        try {
            callbacks.execute(task);
        } catch (RejectedExecutionException e) {
            Thread.startVirtualThread(task);
        }
    }
}
