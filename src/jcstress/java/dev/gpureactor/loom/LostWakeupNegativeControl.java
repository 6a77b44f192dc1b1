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
 * Negative control for {@link JoinerWakeStress} (the joiner-stack family), never run in CI (the
 * default {@code jcstress.filter} excludes {@code NegativeControl}): the same real
 * {@link GpuFuture}, with {@link FutureControls#skipsJoinerRecheck} removing one line of the
 * library, the joiner's re-check of the state after its push. A settle that pops the stack between
 * the joiner's first state read and its push then leaves the joiner to park with nobody to wake it.
 *
 * <p>The lost-wakeup outcome is graded {@code FORBIDDEN}, as in the real test, so a run that shows
 * it fails the build: {@code mvn -B -ntp verify -Pjcstress -Djcstress.filter=LostWakeupNegativeControl -DskipTests}
 * and expect BUILD FAILURE with the count.
 */
@JCStressTest
@Description("Negative control: GpuFuture joiner push without the re-check vs. settle-then-pop.")
@Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "The joiner saw the move, or it was popped and unparked.")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "Lost wakeup (the re-check removed): the joiner parks after the pop.")
@State
public class LostWakeupNegativeControl {
    private final GpuFuture<Void> f = Rig.future(new FutureControls(true, false, false, false), null); // the one line removed
    private GpuFuture.Joiner node;

    @Actor
    public void joiner() {
        node = Rig.joinStep(f);
    }

    @Actor
    public void settler() {
        f.signal();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = node == null ? 0 : 1;
        r.r2 = node != null && !Rig.woken(node) ? 1 : 0;
    }
}
