package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link GpuFuture#toCompletableFuture()} against the settle, on the real future: one actor asks
 * for the stage (CAS the stage field, then a volatile read of the state), the other settles the
 * future ({@link GpuFuture#signal()}, no readback: a volatile state store, then a read of the stage
 * field). A Dekker pair: one of the two must see the other and complete the stage.
 *
 * <p>Result: r1 1 when the stage is complete after both actors.
 */
@JCStressTest
@Description("toCompletableFuture (CAS stage, read state) vs. settle (store state, read stage): the stage is always completed.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The stage completed (by the settle, or by toCompletableFuture seeing the state).")
@Outcome(id = "0", expect = FORBIDDEN, desc = "Bug prevented: each side missed the other; the stage never completes.")
@State
public class StageSettleStress {
    final StageSettleCase c = new StageSettleCase();

    @Actor public void asker() { c.asker(); }
    @Actor public void settler() { c.settler(); }
    @Arbiter public void arbiter(I_Result r) { c.arbiter(r); }
}
