package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Negative control for {@link CancelAnswerStress}, never run in CI: the test-only switch
 * {@link FutureControls#cancelAnswersState} puts back the answer a losing cancel gave before FutureTask
 * parity ("the future is cancelled"), so both cancels say true.
 *
 * <p>It runs {@link CancelAnswerCase} and takes {@link CancelAnswerStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(CancelAnswerStress.class)
@Description("Negative control: a losing cancel answers whether the future is cancelled.")
@State
public class CancelAnswerNegativeControl {
    final CancelAnswerCase c = new CancelAnswerCase(new FutureControls(false, false, false, true, false)); // the control: a losing cancel answers "it is cancelled"

    @Actor public void a() { c.first(); }
    @Actor public void b() { c.second(); }
    @Arbiter public void check(II_Result r) { c.arbiter(r); }
}
