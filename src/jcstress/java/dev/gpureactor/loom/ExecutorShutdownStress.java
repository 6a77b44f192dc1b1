package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

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
    final ExecutorShutdownCase c = new ExecutorShutdownCase();

    @Actor public void submitter() { c.submitter(); }
    @Actor public void shutter() { c.shutter(); }
    @Arbiter public void arbiter(III_Result r) { c.arbiter(r); }
}
