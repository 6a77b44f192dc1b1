package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

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
 *
 * <p>It runs {@link JoinerWakeCase} and takes {@link JoinerWakeStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(JoinerWakeStress.class)
@Description("Negative control: GpuFuture joiner push without the re-check vs. settle-then-pop.")
@State
public class LostWakeupNegativeControl {
    final JoinerWakeCase c = new JoinerWakeCase(new FutureControls(true, false, false, false, false), false); // the one line removed

    @Actor public void joiner() { c.joiner(); }
    @Actor public void settler() { c.settler(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
