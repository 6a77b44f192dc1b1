package dev.gpureactor.loom;

import dev.gpureactor.carrier.LiveThreads;
import dev.gpureactor.carrier.CarrierPool;
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
 * A live virtual thread's resume ({@link CarrierPool#execute}, as the JDK's unparker, unblocker or
 * poller calls it) vs {@link CarrierPool#close}, on the real pool. The setup starts one thread and
 * runs its first part (it counts itself live and parks); the resumer submits its continuation,
 * which ends the thread; the arbiter plays the carrier.
 *
 * <p>Results: r1 = the resume was admitted (1) or rejected (0); r2 = the carriers were retired after
 * everything ran. Forbidden: a rejected resume (the thread would be stranded and the JDK's thread
 * would die of our exception), or carriers that never leave.
 */
@JCStressTest
@Description("Resume of a live thread vs close: the resume is never rejected, and the carriers leave after the thread ends.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The resume ran; the thread ended; the carriers left.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: a live thread's resume rejected after close, or the carriers never leave.")
@State
public class PoolResumeCloseStress {
    final PoolResumeCloseCase c = new PoolResumeCloseCase();

    @Actor public void resumer() { c.resumer(); }
    @Actor public void closer() { c.closer(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
