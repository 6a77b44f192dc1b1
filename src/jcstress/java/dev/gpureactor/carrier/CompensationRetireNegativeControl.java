package dev.gpureactor.carrier;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * {@link CompensationRetireStress} with the give-back's second look at the termination removed (the line
 * before the fix of the carriers that lingered their keep-alive after a close): when the retirement looks
 * before the count is restored, nothing ends the pool. Fails on purpose: it shows {@code 0}. Excluded from
 * CI by name.
 *
 * <p>It runs {@link CompensationRetireCase} and takes {@link CompensationRetireStress}'s outcomes
 * ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(CompensationRetireStress.class)
@Description("Negative control of CompensationRetireStress: without the second look a retired pool waits out its keep-alive.")
@State
public class CompensationRetireNegativeControl {
    final CompensationRetireCase c = new CompensationRetireCase(false); // the control: no second look

    @Actor public void watch() { c.watch(); }
    @Actor public void lastTask() { c.release(); }
    @Arbiter public void arbiter(I_Result r) { c.arbiter(r); }
}
