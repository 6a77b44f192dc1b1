package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Negative control for {@link LineCloseRegisterStress}, never run in CI (the default filter
 * excludes {@code NegativeControl}): the same test, but dropping a closed line's watch does not
 * fail its waits ({@link ParkerHooks#closedLineFailsWaits}), one real line removed, so the
 * registration that reached B's watch is stranded: run {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=LineCloseRegisterNegativeControl} and expect BUILD FAILURE with its count.
 *
 * <p>It runs {@link LineCloseRegisterCase} and takes {@link LineCloseRegisterStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(LineCloseRegisterStress.class)
@Description("Negative control: a dropped watch whose waits are not failed. Register on line B vs. B's close, one parker over A and B: B's wait fails LineClosed, A's stays, the parker watches A alone.")
@State
public class LineCloseRegisterNegativeControl {
    final LineCloseRegisterCase c = new LineCloseRegisterCase(Rig.KEEPS_CLOSED_LINE_WAITS); // the control: dropping a closed line's watch leaves its waits unfailed

    @Actor public void registrar() { c.registrar(); }
    @Actor public void closerThenParker() { c.closerThenParker(); }
    @Arbiter public void arbiter(III_Result r) { c.arbiter(r); }
}
