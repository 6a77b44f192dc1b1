package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link ReactorCloseStress} with the second close's wait for the first removed: a close that lost
 * the race returns at once, as {@code if (closed) return;} did. Fails on purpose, showing {@code 1, 0}
 * or {@code 0, 1}: a close returned before the waits were ended. Excluded from CI by name.
 */
@JCStressTest
@JCStressMeta(ReactorCloseStress.class)
@Description("Negative control of ReactorCloseStress: without the wait, a second close returns before the first's work.")
@State
public class ReactorCloseNegativeControl {
    final ReactorCloseCase c = new ReactorCloseCase(false); // the control: the wait for the first close removed

    @Actor public void actor1(II_Result r) { c.actor1(r); }
    @Actor public void actor2(II_Result r) { c.actor2(r); }
}
