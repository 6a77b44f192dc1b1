package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.util.concurrent.CompletableFuture;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

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
 */
@JCStressTest
@Description("Negative control: toCompletableFuture without its state re-check vs. settle.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The stage completed (by the settle, or by toCompletableFuture seeing the state).")
@Outcome(id = "0", expect = FORBIDDEN, desc = "Bug prevented: each side missed the other; the stage never completes.")
@State
public class StageSettleNegativeControl {
    private final GpuFuture<Void> f = Rig.future(new FutureControls(false, true, false, false), null); // the one line removed: toCompletableFuture's state re-check
    private CompletableFuture<Void> stage;

    @Actor
    public void asker() {
        stage = f.toCompletableFuture();
    }

    @Actor
    public void settler() {
        f.signal();
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = stage.isDone() ? 1 : 0;
    }
}
