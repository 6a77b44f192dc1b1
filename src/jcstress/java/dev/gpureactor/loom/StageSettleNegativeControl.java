package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Negative control for {@link StageSettleStress}, never run in CI: the same real future with the
 * control {@link FutureControls#skipsStageRecheck} removing toCompletableFuture's state re-check.
 * A settle that read the stage field before the CAS then completes nothing, and nobody else does.
 *
 * <p>The test it controls: {@link GpuFuture#toCompletableFuture()} against the settle: one actor asks
 * for the stage (CAS the stage field, then a volatile read of the state), the other settles the
 * future ({@link GpuFuture#signal()}, no readback: a volatile state store, then a read of the stage
 * field). A Dekker pair: one of the two must see the other and complete the stage.
 *
 * <p>Result: r1 1 when the stage is complete after both actors.
 *
 * <p>It runs {@link StageSettleCase} and takes {@link StageSettleStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(StageSettleStress.class)
@Description("Negative control: toCompletableFuture without its state re-check vs. settle.")
@State
public class StageSettleNegativeControl {
    final StageSettleCase c = new StageSettleCase(new FutureControls(false, true, false, false, false)); // the one line removed: toCompletableFuture's state re-check

    @Actor public void asker() { c.asker(); }
    @Actor public void settler() { c.settler(); }
    @Arbiter public void arbiter(I_Result r) { c.arbiter(r); }
}
