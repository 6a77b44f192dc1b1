package dev.gpureactor.loom;

import dev.gpureactor.parker.ParkerHooks;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link ReliefStandbyStress} with the relieved host's wait for the hand-over taken out
 * ({@link ParkerHooks#awaitsPendingRelief} false): it announces at once, and leaves when the slot still holds the
 * thread its relief is taking. Fails on purpose: it shows {@code 2, 0}. Excluded from CI by name.
 *
 * <p>It runs {@link ReliefStandbyCase} and takes {@link ReliefStandbyStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(ReliefStandbyStress.class)
@Description("Negative control of ReliefStandbyStress: a relieved host that announces at once loses the parker its standby.")
@State
public class ReliefStandbyNegativeControl {
    final ReliefStandbyCase c = new ReliefStandbyCase(Rig.ANNOUNCES_AT_ONCE); // the control: no wait

    @Actor public void host() { c.host(); }
    @Actor public void registrar() { c.registrar(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
