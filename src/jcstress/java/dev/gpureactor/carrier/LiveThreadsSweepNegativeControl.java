package dev.gpureactor.carrier;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link LiveThreadsSweepStress} with the sweep's CAS on the head replaced by a plain store: a push that
 * lands between the sweep's read of the cleared top and its store is overwritten. Fails on purpose: it
 * shows {@code 0, 1}. Excluded from CI by name.
 *
 * <p>It runs {@link LiveThreadsSweepCase} and takes {@link LiveThreadsSweepStress}'s outcomes
 * ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(LiveThreadsSweepStress.class)
@Description("Negative control of LiveThreadsSweepStress: a plain store of the head loses a racing push.")
@State
public class LiveThreadsSweepNegativeControl {
    final LiveThreadsSweepCase c = new LiveThreadsSweepCase(false); // the control: the head overwritten

    @Actor public void link() { c.link(); }
    @Actor public void sweep() { c.sweep(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
