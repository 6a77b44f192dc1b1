package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Negative control for {@link InlineTakeoverStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same real platform joiner ({@link GpuFuture#join()} taking the plan
 * over) and the same real parker turn, with the one line that withdraws the registration before the
 * joiner's first query removed ({@link FutureControls#skipsWithdraw}).
 * The parker's turn can then complete the wait from the store that came after the query reported
 * the failure, and the joiner's failure loses to it. The outcomes are graded as in the real test, so
 * a run that shows the bug fails: run {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=InlineTakeoverNegativeControl -DskipTests} and expect BUILD FAILURE with its count.
 *
 * <p>Results: r1 the future's state after both (0 pending, 1 completed, 2 other), r2 what the
 * joiner's {@code join()} got (1 the value, 2 the backend's coded failure, 3 anything else).
 *
 * <p>It runs {@link InlineTakeoverCase} and takes {@link InlineTakeoverStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(InlineTakeoverStress.class)
@Description("Negative control: a platform joiner that takes the plan over without withdrawing its registration vs. a parker turn.")
@State
public class InlineTakeoverNegativeControl {
    final InlineTakeoverCase c = new InlineTakeoverCase(new FutureControls(false, false, true, false, false)); // the control: the joiner keeps the parker's registration while it queries

    @Actor public void platformJoiner() { c.platformJoiner(); }
    @Actor public void parker() { c.parker(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
