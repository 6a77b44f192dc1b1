package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Negative control for {@link LoopHandOverStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same hand-over, but {@link ParkerHosting#handOver} writes
 * {@code handed} before {@code thread} ({@link Rig#HANDS_FIRST}), one real line moved
 * ahead of the owner's last write. The forbidden outcome (handed, {@code thread} still the old
 * owner) must appear: run {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=LoopHandOverNegativeControl -DskipTests} and expect BUILD FAILURE with its count.
 *
 * <p>It runs {@link LoopHandOverCase} and takes {@link LoopHandOverStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(LoopHandOverStress.class)
@Description("Negative control: a hand-over that publishes handed before thread.")
@State
public class LoopHandOverNegativeControl {
    final LoopHandOverCase c = new LoopHandOverCase(Rig.HANDS_FIRST); // the control: handed is written before thread

    @Actor public void owner() { c.owner(); }
    @Actor public void standingBy(III_Result r) { c.standingBy(r); }
}
