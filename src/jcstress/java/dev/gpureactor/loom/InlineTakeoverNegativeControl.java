package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ReactorException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Negative control for {@link InlineTakeoverStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same joiner and parker turn, but the joiner queries without first
 * withdrawing the registration, as the std host did before the fix. The parker's turn can then
 * complete the wait from the store that came after the query reported the failure, and the
 * joiner's {@code fail} loses. The outcome is graded {@code FORBIDDEN} as in the real test, so a
 * run that shows it fails: run {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=InlineTakeoverNegativeControl} and expect BUILD FAILURE with its count.
 *
 * <p>Result: the future's state after both (1 completed, 2 failed).
 */
@JCStressTest
@Description("Negative control: a platform joiner that queries without withdrawing its registration vs. a parker turn.")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "The joiner's failure won.")
@Outcome(id = "1", expect = FORBIDDEN, desc = "The parker completed the wait from the late store (two watchers).")
@State
public class InlineTakeoverNegativeControl {
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final Rig.FailingPort port = Rig.failingThenStoring(line, 0, 1);
    private final GpuFuture<Void> waiter = Rig.future(line, 0, 1, port, null); // no readback: a signal completes it

    public InlineTakeoverNegativeControl() {
        parker.register(waiter.lineWait);
        parker.step(false);
    }

    @Actor
    public void joinerWithoutWithdraw() {
        try {
            port.query();
        } catch (ReactorException e) {
            waiter.fail(e);
        }
    }

    @Actor
    public void parker() {
        parker.step(false);
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = Rig.settled(waiter);
    }
}
