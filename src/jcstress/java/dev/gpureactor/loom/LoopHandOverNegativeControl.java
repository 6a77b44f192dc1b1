package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
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
 * {@code NegativeControl}): the same hand-over, but {@link LineParker#handOver} writes
 * {@code handed} before {@code thread} ({@link LineParker#controlHandsFirst}), one real line moved
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
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final ParkerThread standing = new ParkerThread(parker, "jcstress-standby");

    public LoopHandOverNegativeControl() {
        parker.step(false); // the line is watched; its group holds no wait yet
        parker.register(Rig.future(line, 0, 1, null).lineWait); // offered, drained by the owner's turn below
        if (!parker.announceStandby(standing)) throw new IllegalStateException("no standby");
        parker.controlHandsFirst = true; // the one line moved: handed is written before thread
    }

    @Actor
    public void owner() {
        parker.step(false); // the owner's last write to the loop: drain the registration into the group
        parker.handOver();
    }

    @Actor
    public void standingBy(III_Result r) {
        if (standing.handed) { // volatile, as standBy reads it before it runs the loop
            r.r1 = 1;
            r.r2 = parker.group.waiting();
            r.r3 = parker.loopThread() == standing ? 1 : 0;
        } else {
            r.r1 = 0;
            r.r2 = -1;
            r.r3 = -1;
        }
    }
}
