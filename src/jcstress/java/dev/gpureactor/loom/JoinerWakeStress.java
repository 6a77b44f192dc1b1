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
 * The first joiner's registration against the settle, on the real {@link GpuFuture}: one actor takes one
 * joiner step ({@link Rig#joinStep}: read the state, register, which takes the future's sole slot, re-check
 * the state with a volatile load; the registration it would park with, or none when it saw the move), the
 * other settles the future ({@link GpuFuture#signal()} with no readback: state store, then empty the slot and
 * pop the stack, unparking each). {@link SecondJoinerWakeStress} is the same for a second joiner, whose node
 * goes on the stack.
 *
 * <p>Results: r1 1 when the joiner decided to park, r2 1 when a thread that parks was never woken (its
 * registration left in place by the settle). A joiner that parks with nobody left to wake it is the lost
 * wakeup.
 */
@JCStressTest
@Description("GpuFuture first joiner register-then-recheck vs. settle-then-wake: a joiner that parks is always woken.")
@Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "The joiner saw the move, or it parks and the settle took its registration out and unparked it.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: lost wakeup — a joiner parks with its registration (slot or node) left after the settle; nobody wakes it.")
@State
public class JoinerWakeStress {
    final JoinerWakeCase c = new JoinerWakeCase(false);

    @Actor public void joiner() { c.joiner(); }
    @Actor public void settler() { c.settler(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
