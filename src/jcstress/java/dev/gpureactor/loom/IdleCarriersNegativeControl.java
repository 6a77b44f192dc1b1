package dev.gpureactor.loom;

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
 * {@link IdleCarriersStress} with the pass-on line removed ({@code new IdleCarriers(false)}): a
 * carrier whose withdrawal loses to a claim keeps the signal. Fails on purpose, showing the outcome the
 * stress test forbids (1: B sleeps while T waits behind A). Excluded from CI by name.
 */
@JCStressTest
@Description("Negative control of IdleCarriersStress: without the pass-on, the submit's signal can be spent on a carrier that was not asleep.")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "B was claimed.")
@Outcome(id = "1", expect = FORBIDDEN, desc = "The bug shows: the signal went to A, busy with other work, and B sleeps on.")
@State
public class IdleCarriersNegativeControl {
    private final IdleCarriersStress real = new IdleCarriersStress(new IdleCarriers(false));

    @Actor
    public void carrierFindsOtherWork() { real.carrierFindsOtherWork(); }

    @Actor
    public void submitter() { real.submitter(); }

    @Arbiter
    public void arbiter(I_Result r) { real.arbiter(r); }
}
