package dev.gpureactor.carrier;

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
 * A thread's link against a sweep of its stripe whose top entry is cleared ({@link LiveThreads} has the
 * ordering argument): the sweep takes the cleared top off the head only by CAS, so a push that lands
 * between its read of the head and its write is never lost, and it never unlinks a live entry.
 * {@link LiveThreadsSweepCase} has the setup; the family's negative control
 * ({@link LiveThreadsSweepNegativeControl}) takes the top off with a plain store.
 *
 * <p>Result: r1 = 1 when the thread that began is found, r2 = 1 when the live thread below the cleared
 * top is.
 */
@JCStressTest
@Description("A link vs a sweep of a stripe whose top is cleared: every live thread stays found.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both live threads found, whichever came first.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: a live thread lost from the set, so a close from inside it is not told and LiveAtClose does not name it.")
@State
public class LiveThreadsSweepStress {
    final LiveThreadsSweepCase c = new LiveThreadsSweepCase(true);

    @Actor public void link() { c.link(); }
    @Actor public void sweep() { c.sweep(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
