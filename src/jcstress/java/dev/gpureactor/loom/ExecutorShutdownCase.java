package dev.gpureactor.loom;

import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.RejectedExecutionException;

/**
 * The body of {@link ExecutorShutdownStress} and of {@link ExecutorShutdownNegativeControl}, written
 * once: the control differs only by the executor's {@code recheck} (false: the re-read of the state
 * after registering the thread).
 */
final class ExecutorShutdownCase {
    /** A task thread that does not run at start: the arbiter runs it. */
    static final class LaterThread extends Thread {
        volatile boolean started;

        LaterThread(Runnable task) { super(task); }

        @Override
        public void start() { started = true; }

        /** Runs it now, as itself (the task's exit from the executor names the current thread). */
        void runNow() {
            super.start();
            try {
                join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    private volatile LaterThread thread;
    private volatile int accepted;
    private final GpuExecutorService exec;

    /** The test's case: as the library builds it. */
    ExecutorShutdownCase() {
        this(true);
    }

    /** A negative control's case: {@code recheck} changes its one line. */
    ExecutorShutdownCase(boolean recheck) {
        exec = new GpuExecutorService(task -> thread = new LaterThread(task), e -> { }, recheck);
    }

    void submitter() {
        try {
            exec.execute(() -> { });
            accepted = 1;
        } catch (RejectedExecutionException e) {
            accepted = 0;
        }
    }

    void shutter() {
        exec.shutdown();
    }

    void arbiter(III_Result r) {
        LaterThread t = thread;
        boolean started = t != null && t.started;
        r.r1 = accepted == 0 ? 0 : started ? 1 : 2;
        r.r2 = exec.isTerminated() ? 1 : 0;
        if (started) t.runNow(); // the task thread runs now: the task, then its exit from the executor
        r.r3 = exec.isTerminated() ? 1 : 0;
    }
}
