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
 * {@link ExecutorShutdownStress} with the re-read of the state after registration removed: a
 * submission that passed the first check starts its task even if shutdown terminated the executor
 * in between. Fails on purpose, showing {@code 1, 1, 1}: accepted, but termination reported before it ran.
 * Excluded from CI by name.
 */
@JCStressTest
@Description("Negative control of ExecutorShutdownStress: without the re-check, termination can be reported before an accepted task runs.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "Accepted, ran, terminated.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Rejected.")
@Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "The bug shows: terminated with an accepted task not yet run.")
@Outcome(expect = FORBIDDEN, desc = "Another broken outcome.")
@State
public class ExecutorShutdownNegativeControl {
    private final ExecutorShutdownStress real = new ExecutorShutdownStress(false);

    @Actor
    public void submitter() { real.submitter(); }

    @Actor
    public void shutter() { real.shutter(); }

    @Arbiter
    public void arbiter(III_Result r) { real.arbiter(r); }
}
