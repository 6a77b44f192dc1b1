package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.RejectedExecutionException;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link GpuExecutorService#execute} vs {@link GpuExecutorService#shutdown}, the real executor over
 * a factory whose threads only record {@code start()}: the arbiter runs a started thread afterwards,
 * standing for a task thread that runs later. So "terminated" seen before that run means termination
 * was reported with an accepted task not run.
 *
 * <p>Results: r1 = 0 rejected, 1 accepted and started, 2 accepted but never started; r2 = terminated
 * before the accepted task ran; r3 = terminated after everything ran.
 */
@JCStressTest
@Description("Executor shutdown vs execute: a task is either run or rejected, and termination follows every accepted task.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "Accepted: it ran, then the executor terminated.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Rejected after the shutdown: the executor terminated with nothing to run.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: a task accepted but termination reported before it ran, a task never run nor rejected, or no termination.")
@State
public class ExecutorShutdownStress {
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

    volatile LaterThread thread;
    volatile int accepted;
    final GpuExecutorService exec;

    public ExecutorShutdownStress() { this(true); }

    ExecutorShutdownStress(boolean recheck) {
        exec = new GpuExecutorService(task -> thread = new LaterThread(task), e -> { }, recheck);
    }

    @Actor
    public void submitter() {
        try {
            exec.execute(() -> { });
            accepted = 1;
        } catch (RejectedExecutionException e) {
            accepted = 0;
        }
    }

    @Actor
    public void shutter() {
        exec.shutdown();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        LaterThread t = thread;
        boolean started = t != null && t.started;
        r.r1 = accepted == 0 ? 0 : started ? 1 : 2;
        r.r2 = exec.isTerminated() ? 1 : 0;
        if (started) t.runNow(); // the task thread runs now: the task, then its exit from the executor
        r.r3 = exec.isTerminated() ? 1 : 0;
    }
}
