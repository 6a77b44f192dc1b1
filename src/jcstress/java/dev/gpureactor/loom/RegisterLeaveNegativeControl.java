package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Negative control for {@link RegisterLeaveStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same registrar and leaving parker, but the registrar skips its
 * read of {@code gone} after the offer ({@link Rig#SKIPS_GONE}), one real line
 * removed. An offer that lands after the leaving thread's drain is then seen by nobody, and the
 * forbidden outcome appears: run {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=RegisterLeaveNegativeControl} and expect BUILD FAILURE with its count.
 *
 * <p>Results: r1 the future after both (0 pending, 1 completed, 2 failed); r2 the inbox after both.
 *
 * <p>It runs {@link RegisterLeaveCase} and takes {@link RegisterLeaveStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(RegisterLeaveStress.class)
@Description("Negative control: a registrar that does not read gone after its offer vs. leave.")
@State
public class RegisterLeaveNegativeControl {
    final RegisterLeaveCase c = new RegisterLeaveCase(Rig.SKIPS_GONE); // the registrar skips its read of gone after its offer

    @Actor public void registrar() { c.registrar(); }
    @Actor public void leaving() { c.leaving(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
