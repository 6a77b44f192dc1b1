package dev.gpureactor.bench.gpu;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.J_Result;

/**
 * Negative control for {@link StampStress}, never run in CI (the default {@code jcstress.filter}
 * excludes {@code NegativeControl}): the same pair ({@link StampCase}) on {@link Stamp#unordered},
 * whose publish writes the sequence number before the time (the order of the real publish's two
 * lines swapped). It takes the test's outcomes ({@link JCStressMeta}), so a reader between the two
 * writes sees store 1 with the old time, 0, graded FORBIDDEN as in the real test, and the build
 * fails: run it with {@code mvn -B -ntp verify -Pjcstress -Djcstress.filter=StampNegativeControl
 * -DskipTests} and expect BUILD FAILURE with the count.
 */
@JCStressTest
@JCStressMeta(StampStress.class)
@Description("Negative control: Stamp.unordered publishes the sequence number before the time.")
@State
public class StampNegativeControl {
    final StampCase c = new StampCase(Stamp.unordered(0));

    @Actor public void observer() { c.observer(); }
    @Actor public void harness(J_Result r) { c.harness(r); }
}
