package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
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
 */
@JCStressTest
@Description("Negative control: a platform joiner that takes the plan over without withdrawing its registration vs. a parker turn.")
@Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "The query, the error authority, failed the wait; the late store changed nothing.")
@Outcome(expect = FORBIDDEN, desc = "Two watchers: the parker completed the wait from the late store, and the joiner's failure lost.")
@State
public class InlineTakeoverNegativeControl {
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final GpuFuture<Integer> waiter = Rig.future(line, 0, 1, Rig.failingThenStoring(line, 0, 1), Rig.stdHost(),
            new FutureControls(false, false, true, false), () -> 42); // the control: the joiner keeps the parker's registration while it queries
    private int joined;

    public InlineTakeoverNegativeControl() {
        Rig.registerAsReactorDoes(parker, waiter);
        parker.step(false); // the parker holds the registration
    }

    @Actor
    public void platformJoiner() {
        try {
            joined = waiter.join() == 42 ? 1 : 3;
        } catch (ReactorException e) {
            joined = e.code() == ErrorCode.Backend ? 2 : 3;
        }
    }

    @Actor
    public void parker() {
        parker.step(false);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = Rig.settled(waiter);
        r.r2 = joined;
    }
}
