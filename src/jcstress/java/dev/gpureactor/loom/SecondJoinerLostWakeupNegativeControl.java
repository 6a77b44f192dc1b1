package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Negative control for {@link SecondJoinerWakeStress}, never run in CI (the default {@code jcstress.filter}
 * excludes {@code NegativeControl}): the same real {@link GpuFuture}, with {@link FutureControls#skipsJoinerRecheck}
 * removing one line of the library, the joiner's re-check of the state after it registers. A settle that pops
 * the stack between the joiner's first state read and its push then leaves the second joiner to park with
 * nobody to wake it: {@code 1, 1}.
 *
 * <p>{@code mvn -B -ntp verify -Pjcstress -Djcstress.filter=SecondJoinerLostWakeupNegativeControl -DskipTests}
 * and expect BUILD FAILURE with the count. It runs {@link JoinerWakeCase} (the slot held) and takes the tests'
 * outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(JoinerWakeStress.class)
@Description("Negative control: a second GpuFuture joiner pushes without the re-check vs. settle-then-wake.")
@State
public class SecondJoinerLostWakeupNegativeControl {
    final JoinerWakeCase c = new JoinerWakeCase(new FutureControls(true, false, false, false, false), true); // the one line removed

    @Actor public void joiner() { c.joiner(); }
    @Actor public void settler() { c.settler(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
