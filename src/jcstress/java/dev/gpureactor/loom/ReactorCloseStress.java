package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two concurrent {@link GpuReactor#close()}s, through the real {@link ReactorClose}: whichever
 * returns, the close's work is done and visible to it. Results: the work each closer saw on return.
 */
@JCStressTest
@Description("Concurrent reactor closes: neither returns before the first close's work is done.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both returned after the work, and both see it.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: a second close returned while the first was still ending the waits (or without seeing that it had).")
@State
public class ReactorCloseStress {
    final ReactorCloseCase c = new ReactorCloseCase();

    @Actor public void actor1(II_Result r) { c.actor1(r); }
    @Actor public void actor2(II_Result r) { c.actor2(r); }
}
