package dev.gpureactor.loom;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.strategy.ValidationFailure;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Lincheck against the executor's lifecycle: submit, shutdown, shutdownNow and isShutdown on the
 * real {@link GpuExecutorService}, checked for linearizability against {@link ExecutorModel}, and
 * termination ({@code isTerminated}, {@code awaitTermination(0)}) checked after every scenario.
 * Its thread factory (the construction seam the reactor fills with its own) makes threads that
 * start only when an operation, {@code runOne}, lets one run and waits for its end; so when a task
 * ends is one of the checker's operations, and the model stays deterministic.
 *
 * <p>The stress strategy, not the model checker: Lincheck 2.39 takes the executor's
 * {@code Thread.start()} for a thread of the test it must schedule, and its scheduler waits for it
 * for ever (the execution hangs in {@code submit}).
 *
 * <p>Termination is checked at the end, not as a concurrent read: shutting down is two steps
 * (RUNNING → SHUTDOWN, then → TERMINATED when nothing runs), as in the JDK's thread-per-task
 * executor, and a reader between them sees shut down but not terminated with nothing running; so
 * does a reader while a submission that lost to the shutdown withdraws, and after a shutdown that
 * lost to another. The submitter's operations share one thread, and so do the shutter's.
 */
class ExecutorLincheckTest {
    static final int ITERATIONS = 10, INVOCATIONS = 1000;

    /** A task thread that starts only when {@link ExecutorOps#runOne} lets it. */
    static final class Deferred extends Thread {
        private final ConcurrentLinkedQueue<Deferred> started;

        Deferred(Runnable task, ConcurrentLinkedQueue<Deferred> started) {
            super(task);
            this.started = started;
        }

        /** The executor started it: queue it for {@code runOne}. */
        @Override public void start() { started.add(this); }

        void release() throws InterruptedException {
            super.start();
            join();
        }
    }

    /** The operations on one real executor, with trivial tasks. */
    public static class ExecutorOps {
        final ConcurrentLinkedQueue<Deferred> started = new ConcurrentLinkedQueue<>();
        final GpuExecutorService ex;
        final AtomicInteger ranAfterTermination = new AtomicInteger();

        public ExecutorOps() { this(true); }

        ExecutorOps(boolean recheck) {
            Instrumented.classes(GpuExecutorService.class);
            ex = new GpuExecutorService(r -> new Deferred(r, started), e -> { }, recheck);
        }

        @Operation(nonParallelGroup = "submitter")
        public boolean submit() {
            try {
                ex.execute(() -> {
                    if (ex.isTerminated()) ranAfterTermination.incrementAndGet();
                });
                return true;
            } catch (RejectedExecutionException e) {
                return false;
            }
        }

        /**
         * Lets one accepted task run on its own thread to its end; false when none is waiting to
         * run. On the submitter's thread: a task is queued here only when its {@code execute}
         * starts its thread, after the acceptance the model records.
         */
        @Operation(nonParallelGroup = "submitter")
        public boolean runOne() throws InterruptedException {
            Deferred d = started.poll();
            if (d == null) return false;
            d.release();
            return true;
        }

        @Operation(nonParallelGroup = "shutter")
        public void shutdown() { ex.shutdown(); }

        @Operation(nonParallelGroup = "shutter")
        public int shutdownNow() { return ex.shutdownNow().size(); }

        @Operation public boolean isShutdown() { return ex.isShutdown(); }

        /**
         * After every scenario, with nothing running: terminated exactly when shut down with no
         * accepted task left to run ({@code awaitTermination(0)} agreeing), and no task ran after
         * termination was reported.
         */
        @Validate public void terminatedOnceNothingIsLeft() throws InterruptedException {
            boolean expected = ex.isShutdown() && started.isEmpty();
            if (ex.isTerminated() != expected || ex.awaitTermination(0, TimeUnit.NANOSECONDS) != expected) {
                throw new IllegalStateException("shut down " + ex.isShutdown() + ", " + started.size()
                        + " accepted tasks not run, terminated " + ex.isTerminated());
            }
            if (ranAfterTermination.get() > 0) throw new IllegalStateException(ranAfterTermination.get() + " tasks ran after termination");
        }
    }

    /**
     * The sequential specification, the JDK's thread-per-task lifecycle: a task is refused after
     * shutdown; termination comes once shut down with no accepted task left to run; shutdownNow
     * returns no task (each accepted task has its own thread: none waits in a queue).
     */
    public static class ExecutorModel {
        boolean shutdown;
        int waiting;

        public boolean submit() {
            if (shutdown) return false;
            waiting++;
            return true;
        }

        public boolean runOne() {
            if (waiting == 0) return false;
            waiting--;
            return true;
        }

        public void shutdown() { shutdown = true; }

        public int shutdownNow() {
            shutdown = true;
            return 0;
        }

        public boolean isShutdown() { return shutdown; }

    }

    /** {@link ExecutorOps} on an executor without the re-check after registration: the jcstress control's seam. */
    public static class NoRecheckOps extends ExecutorOps {
        public NoRecheckOps() { super(false); }
    }

    static StressOptions options() {
        return new StressOptions()
                .iterations(ITERATIONS)
                .invocationsPerIteration(INVOCATIONS)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1)
                .sequentialSpecification(ExecutorModel.class);
    }

    @Test
    void theExecutorsLifecycleIsLinearizable() {
        LinChecker.check(ExecutorOps.class, options());
    }

    @Test
    void negativeControlWithoutTheRecheckTerminatesBeforeAnAcceptedTask() {
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> LinChecker.check(NoRecheckOps.class, options().minimizeFailedScenario(false)));
        assertInstanceOf(ValidationFailure.class, e.getFailure(), e.getMessage());
    }
}
