package dev.gpureactor.carrier;

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
 * The watch's give-back of a compensation against the pool's retirement, with the compensated carrier
 * already idle ({@link CarrierThreads#giveBack} has the ordering argument): whichever comes first, the
 * pool's termination begins, and its carriers leave at once, not after their keep-alive.
 * {@link CompensationRetireCase} has the setup; the family's negative control
 * ({@link CompensationRetireNegativeControl}) gives the compensation back without the second look.
 *
 * <p>Result: r1 = 1 when the pool's termination began, 0 when its carriers stayed idle, parked for their
 * keep-alive, with the pool shut down and not terminating.
 */
@JCStressTest
@Description("A compensation given back vs the retirement of its pool: the pool terminates whichever comes first.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The pool's termination began: by the retirement's own look, or by the give-back's second look.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: the pool shut down, the compensation given back, and its carriers wait out their keep-alive.")
@State
public class CompensationRetireStress {
    final CompensationRetireCase c = new CompensationRetireCase(true);

    @Actor public void watch() { c.watch(); }
    @Actor public void lastTask() { c.release(); }
    @Arbiter public void arbiter(I_Result r) { c.arbiter(r); }
}
