package dev.gpureactor.bench.gpu;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.J_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Negative control for {@link StampStress}, never run in CI (the default {@code jcstress.filter}
 * excludes {@code NegativeControl}): the same pair on {@link Stamp#unordered}, whose publish writes
 * the sequence number before the time (the order of the real publish's two lines swapped). A reader
 * between the two writes sees store 1 with the old time, 0, graded FORBIDDEN as in the real test, so
 * the build fails: run it with {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=StampNegativeControl -DskipTests} and expect BUILD FAILURE with the count.
 */
@JCStressTest
@Description("Negative control: Stamp.unordered publishes the sequence number before the time.")
@Outcome(id = "-1", expect = ACCEPTABLE, desc = "Not yet published.")
@Outcome(id = "42", expect = ACCEPTABLE, desc = "Published: the time of store 1.")
@Outcome(id = "0", expect = FORBIDDEN, desc = "Bug prevented by the real order: sequence number 1 seen with the old time.")
@State
public class StampNegativeControl {
    private final Stamp stamp = Stamp.unordered(0);

    @Actor
    public void observer() {
        stamp.publish(1, 42);
    }

    @Actor
    public void harness(J_Result r) {
        r.r1 = stamp.atIfReached(1);
    }
}
