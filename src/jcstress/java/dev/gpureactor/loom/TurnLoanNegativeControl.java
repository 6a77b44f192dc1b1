package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Negative control for {@link TurnLoanStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same loan, but the owner takes its loop back with a plain volatile
 * write instead of its CAS from {@code OPEN} ({@link Rig#TAKES_BACK_AT_ONCE}), one real line
 * changed. The forbidden outcome (a lent turn ran, and the owner still saw its wait) must appear:
 * run {@code mvn -B -ntp verify -Pjcstress -Djcstress.filter=TurnLoanNegativeControl -DskipTests}
 * and expect BUILD FAILURE with its count.
 *
 * <p>It runs {@link TurnLoanCase} and takes {@link TurnLoanStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(TurnLoanStress.class)
@Description("Negative control: an owner that takes its loop back without waiting for a lent turn.")
@State
public class TurnLoanNegativeControl {
    final TurnLoanCase c = new TurnLoanCase(Rig.TAKES_BACK_AT_ONCE); // the control: the take-back does not wait

    @Actor public void owner(II_Result r) { c.owner(r); }
    @Actor public void carrier(II_Result r) { c.carrier(r); }
}
