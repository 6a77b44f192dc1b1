package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Negative control for {@link UnarmedLineStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same test, but the registrar skips its read of {@code parking}
 * after the offer ({@link Rig#SKIPS_PARKING}), one real line removed, so a
 * registration offered after the parker's re-check is seen by nobody and the forbidden outcome
 * appears: run {@code mvn -B -ntp verify -Pjcstress -Djcstress.filter=UnarmedLineNegativeControl}
 * and expect BUILD FAILURE with its count.
 *
 * <p>It runs {@link UnarmedLineCase} and takes {@link UnarmedLineStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(UnarmedLineStress.class)
@Description("Negative control: a registrar that does not read parking. Register on an unwatched line B, then store B, vs. a parker turn and park on line A: the park ends or never starts.")
@State
public class UnarmedLineNegativeControl {
    final UnarmedLineCase c = new UnarmedLineCase(Rig.SKIPS_PARKING); // the control: the registrar skips reading parking after its offer

    @Actor public void waiterThenDevice() { c.waiterThenDevice(); }
    @Actor public void parker(IIII_Result r) { c.parker(r); }
    @Arbiter public void arbiter(IIII_Result r) { c.arbiter(r); }
}
