package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link JoinerWakeStress} for a second joiner: the future's sole slot already held, so the joiner's step
 * ({@link Rig#joinStep}) pushes a node on the stack, against the settle, which empties the slot and pops the
 * stack. r2 is 1 when the joiner parks and its node is never popped, or when the slot's holder is left. It
 * takes {@link JoinerWakeStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(JoinerWakeStress.class)
@Description("GpuFuture second joiner push-then-recheck on the stack vs. settle-then-wake: a joiner that parks is always woken.")
@State
public class SecondJoinerWakeStress {
    final JoinerWakeCase c = new JoinerWakeCase(true);

    @Actor public void joiner() { c.joiner(); }
    @Actor public void settler() { c.settler(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
