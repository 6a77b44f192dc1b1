package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The loop's hand-over (leader/follower, and a relief): the owner drains a registration into its
 * {@link LineGroup} with the real turn ({@link LineParker#step}: plain writes to the group) and
 * then runs the real {@link ParkerHosting#handOver} (take {@code spare}, write {@code thread}, then the
 * standing-by thread's volatile {@code handed}); the standing-by thread, published beforehand
 * through the real {@link ParkerHosting#announceStandby}, reads its {@code handed} as {@code standBy}
 * does and, once handed, the loop's state: the group's waits and {@code thread}.
 *
 * <p>Results: r1 handed seen (1) or not yet (0); r2 the waits the new owner sees in the group
 * (-1 when not handed); r3 whether {@code thread} names the standing-by thread (-1 when not handed).
 */
@JCStressTest
@Description("Hand-over (group written, then thread, then handed) vs. the standing-by thread (read handed, then the loop's state).")
@Outcome(id = "0, -1, -1", expect = ACCEPTABLE, desc = "Not handed yet: the standing-by thread would park on.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "Handed: it sees the drained wait and names itself the loop's thread.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: handed, but the new owner sees a stale loop (the group without the drained wait, or thread not itself): it runs the loop on a stale group, or wakers unpark the old owner.")
@State
public class LoopHandOverStress {
    final LoopHandOverCase c = new LoopHandOverCase();

    @Actor public void owner() { c.owner(); }
    @Actor public void standingBy(III_Result r) { c.standingBy(r); }
}
