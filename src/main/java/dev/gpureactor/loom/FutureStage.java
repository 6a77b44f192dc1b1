package dev.gpureactor.loom;

import dev.gpureactor.carrier.Uncaught;
import dev.gpureactor.carrier.WakeCapture;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

import static dev.gpureactor.loom.GpuFuture.CANCELLED;
import static dev.gpureactor.loom.GpuFuture.COMPLETED;
import static dev.gpureactor.loom.GpuFuture.PENDING;
import static dev.gpureactor.loom.GpuFuture.READY;

/**
 * The stage adapter of a {@link GpuFuture}: its internal stage, made on the first ask, completed only
 * by the future, never handed out (each caller gets a copy, so no caller can change what another
 * sees), and completed off the parker. A superclass rather than a field, so a future nobody asks a
 * stage of pays one null field. Its Dekker pair with the settle: docs/DESIGN.md §5 "stage vs settle".
 *
 * @param <T> the readback's result
 */
abstract class FutureStage<T> extends JoinerStack {
    private static final VarHandle STAGE;

    static {
        try {
            STAGE = MethodHandles.lookup().findVarHandle(FutureStage.class, "stage", CompletableFuture.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Where a stage's readback and a parker's completions run. */
    final Executor callbacks;
    /** The lines a jcstress negative control removes; {@link FutureControls#NONE} in the library. */
    final FutureControls controls;
    /** The internal stage: CAS from null, then read by the settle after its state store (§5 "stage vs settle"). */
    private volatile CompletableFuture<T> stage;

    FutureStage(Executor callbacks, FutureControls controls) {
        this.callbacks = callbacks;
        this.controls = controls;
    }

    /** The future's state, read volatile: the re-check half of a Dekker pair. */
    abstract int volatileState();

    /** Completes {@code s} with the future's terminal outcome. */
    abstract void completeStage(CompletableFuture<T> s);

    /** Nobody joins and nobody watches: runs the wait's plan, if the policy says a stage does. */
    abstract void runInlineForStage();

    /** The internal stage, made on the first ask (one CAS: one stage). */
    final CompletableFuture<T> stage() {
        CompletableFuture<T> s = stage; // volatile: a stage another thread made is complete-able as made
        if (s != null) return s;
        CompletableFuture<T> fresh = new CompletableFuture<>();
        if (!STAGE.compareAndSet(this, null, fresh)) return stage; // volatile CAS: one stage; the Dekker write against settle
        if (controls.skipsStageRecheck()) return fresh; // negative control: the re-check below, removed
        // Dekker with settle (§5): a state before its store means its read of `stage` sees `fresh`.
        int st = volatileState();
        if (st == READY) dispatch(callbacks, this::resolve);
        else if (st >= COMPLETED) completeStage(fresh);
        else if (st == PENDING) runInlineForStage();
        return fresh;
    }

    /** Whether a stage was asked for: read after the state CAS, so a stage CASed before it is seen. */
    final boolean hasStage() { return stage != null; }

    /**
     * After a terminal state store: completes the stage, if one was asked for, never on a library
     * thread, where the stage's dependents would run: a parker, or a carrier settling in a turn it
     * borrowed between two tasks (no virtual thread mounted). Both capture wakes ({@link WakeCapture});
     * a virtual thread on a carrier is the current thread there, and completes it itself.
     */
    final void publishToStage() {
        CompletableFuture<T> s = stage; // volatile: the settle's Dekker read, after its volatile state store
        if (s == null) return;
        if (Thread.currentThread() instanceof WakeCapture) dispatch(callbacks, () -> completeStage(s));
        else completeStage(s);
    }

    /**
     * {@code onComplete}: {@code action} on {@code executor} once the internal stage completes (no
     * caller's copy can change what it sees). What it throws goes to the running thread's handler; a
     * refusal of the executor (the reactor closed meanwhile) runs it on a JDK virtual thread instead.
     */
    final void whenStageCompletes(BiConsumer<? super T, ? super Throwable> action, Executor executor) {
        stage().whenCompleteAsync((v, t) -> {
            try {
                action.accept(v, t);
            } catch (Throwable thrown) {
                Uncaught.report(Thread.currentThread(), thrown);
            }
        }, task -> dispatch(executor, task));
    }

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
        if (state == COMPLETED) s.complete(value);
        else if (state == CANCELLED) s.completeExceptionally(cancellation(failure));
        else if (state > COMPLETED) s.completeExceptionally(failure);
    }

    /** How a cancelled wait is reported as the JDK reports one: a {@link CancellationException} whose cause is the coded {@code Cancelled}. */
    static CancellationException cancellation(Throwable coded) {
        CancellationException c = new CancellationException(coded.getMessage());
        c.initCause(coded);
        return c;
    }

    /**
     * Runs {@code task} on {@code callbacks}; if it refuses (closed), on a new virtual thread of the
     * JDK's scheduler, so a stage is completed even after its reactor closed. An executor that fails
     * otherwise (a user's, with a bug) gets the same, and what it threw goes to this thread's handler:
     * an {@code onComplete} action is never dropped unseen. The JVM's own errors pass.
     */
    static void dispatch(Executor callbacks, Runnable task) {
        try {
            callbacks.execute(task);
        } catch (RejectedExecutionException e) {
            Thread.startVirtualThread(task);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            Thread.startVirtualThread(task);
            Uncaught.report(Thread.currentThread(), e);
        }
    }
}
