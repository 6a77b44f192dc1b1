package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Negative control for {@link FailedTurnStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same loan, but a turn that threw gives the loop back {@code OPEN}
 * instead of {@code FAILED} ({@link FailedTurnCase#REOPENS}), one real line changed. The forbidden
 * outcome (both borrowers ran a turn) must appear: run
 * {@code mvn -B -ntp verify -Pjcstress -Djcstress.filter=FailedTurnNegativeControl -DskipTests} and
 * expect BUILD FAILURE with its count.
 *
 * <p>It runs {@link FailedTurnCase} and takes {@link FailedTurnStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(FailedTurnStress.class)
@Description("Negative control: a lent turn that threw gives the loop back open.")
@State
public class FailedTurnNegativeControl {
    final FailedTurnCase c = new FailedTurnCase(FailedTurnCase.REOPENS); // the control: the failed turn reopens the loan

    @Actor public void owner(III_Result r) { c.owner(r); }
    @Actor public void carrier(III_Result r) { c.carrier(r); }
}
