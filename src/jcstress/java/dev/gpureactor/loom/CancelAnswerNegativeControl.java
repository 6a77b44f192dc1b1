package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Negative control for {@link CancelAnswerStress}, never run in CI: the test-only switch
 * {@link FutureControls#cancelAnswersState} puts back the answer a losing cancel gave before FutureTask
 * parity ("the future is cancelled"), so both cancels say true.
 */
@JCStressTest
@Description("Negative control: a losing cancel answers whether the future is cancelled.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "One cancel said true.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: two cancels of one future both said true (FutureTask's second says false).")
@State
public class CancelAnswerNegativeControl extends CancelAnswerCase {
    public CancelAnswerNegativeControl() { super(true); }

    @Actor public void a() { first(); }

    @Actor public void b() { second(); }

    @Arbiter public void check(II_Result r) { arbiter(r); }
}
