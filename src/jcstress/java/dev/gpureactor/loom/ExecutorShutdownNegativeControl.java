package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@link ExecutorShutdownStress} with the re-read of the state after registration removed: a
 * submission that passed the first check starts its task even if shutdown terminated the executor
 * in between. Fails on purpose, showing {@code 1, 1, 1}: accepted, but termination reported before it ran.
 * Excluded from CI by name.
 *
 * <p>It runs {@link ExecutorShutdownCase} and takes {@link ExecutorShutdownStress}'s outcomes ({@link JCStressMeta}): every outcome but the accepted ones is forbidden, the one the bug shows included.
 */
@JCStressTest
@JCStressMeta(ExecutorShutdownStress.class)
@Description("Negative control of ExecutorShutdownStress: without the re-check, termination can be reported before an accepted task runs.")
@State
public class ExecutorShutdownNegativeControl {
    final ExecutorShutdownCase c = new ExecutorShutdownCase(false); // the control: the re-read of the state after registering the thread removed

    @Actor public void submitter() { c.submitter(); }
    @Actor public void shutter() { c.shutter(); }
    @Arbiter public void arbiter(III_Result r) { c.arbiter(r); }
}
