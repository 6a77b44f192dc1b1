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
 * Negative control for {@link LoopHandOverStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same hand-over, but {@link ParkerHosting#handOver} writes
 * {@code handed} before {@code thread} ({@link Rig#HANDS_FIRST}), one real line moved
 * ahead of the owner's last write. The forbidden outcome (handed, {@code thread} still the old
 * owner) must appear: run {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=LoopHandOverNegativeControl -DskipTests} and expect BUILD FAILURE with its count.
 */
@JCStressTest
@Description("Negative control: a hand-over that publishes handed before thread.")
@Outcome(id = "0, -1, -1", expect = ACCEPTABLE, desc = "Not handed yet.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "Handed, the loop's state seen.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: handed, but the new owner sees a stale loop.")
@State
public class LoopHandOverNegativeControl {
    final LoopHandOverCase c = new LoopHandOverCase(true);

    @Actor
    public void owner() { c.owner(); }

    @Actor
    public void standingBy(III_Result r) { c.standingBy(r); }
}
