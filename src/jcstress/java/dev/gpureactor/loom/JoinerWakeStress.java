package dev.gpureactor.loom;

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
 * The joiner stack's push against the settle's pop, on the real {@link GpuFuture}: one actor takes
 * one joiner step ({@link Rig#joinStep}: read the state, push a node, re-check the state with a
 * volatile load; the node it would park with, or none when it saw the move), the other settles the
 * future ({@link GpuFuture#signal()} with no readback: state store, then pop and unpark).
 *
 * <p>Results: r1 1 when the joiner decided to park, r2 1 when that joiner's node was never popped
 * and unparked by the settle. A joiner that parks with nobody left to wake it is the lost wakeup.
 */
@JCStressTest
@Description("GpuFuture joiner push-then-recheck vs. settle-then-pop: a joiner that parks is always woken.")
@Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "The joiner saw the move, or it parks and the settle popped and unparked it.")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "Bug prevented: lost wakeup — the joiner parks after the settle popped the stack; nobody wakes it.")
@State
public class JoinerWakeStress {
    final JoinerWakeCase c = new JoinerWakeCase();

    @Actor public void joiner() { c.joiner(); }
    @Actor public void settler() { c.settler(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
