package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Negative control for {@link GiveBackStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same real give-back ({@link NaiveRunner#leave}) and the same real
 * parker turn, with the one line that takes the withdrawal back before registering again removed
 * ({@link FutureControls#skipsRevoke}). When the joiner's registration lands before the parker's
 * drain, that drain takes it in (the wait is held already: nothing changes) and then the
 * withdrawal, which drops the wait. Run {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=GiveBackNegativeControl -DskipTests} and expect BUILD FAILURE with its count.
 *
 * <p>Results: r1 how many waits the parker holds on the slot after both and a last turn, r2 the
 * reactor's registration count.
 *
 * <p>It runs {@link GiveBackCase} and takes {@link GiveBackStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(GiveBackStress.class)
@Description("Negative control: a runner that registers its wait again without taking its withdrawal back vs. a parker turn.")
@State
public class GiveBackNegativeControl {
    final GiveBackCase c = new GiveBackCase(new FutureControls(false, false, false, false, true)); // the control: no revoke before registering again

    @Actor public void joiner() { c.joiner(); }
    @Actor public void parker() { c.parker(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
