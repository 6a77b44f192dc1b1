package dev.gpureactor.bench.gpu;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.J_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The GPU bench's stamp handoff ({@link Stamp}, the real class): the observer publishes "store 1 seen
 * at t = 42" while the harness asks for the time of store 1. Had the time been written after the
 * sequence number (or without the release), the harness could find store 1 published and read the
 * stamp's old time, 0: a latency measured from the wrong zero.
 *
 * <p>Result: the time the reader got, or -1 when store 1 was not yet published.
 */
@JCStressTest
@Description("Stamp.publish(1, 42) vs. Stamp.atIfReached(1): a reader that sees sequence number 1 reads its time.")
@Outcome(id = "-1", expect = ACCEPTABLE, desc = "Not yet published: the harness asks again.")
@Outcome(id = "42", expect = ACCEPTABLE, desc = "Published: the time of store 1.")
@Outcome(id = "0", expect = FORBIDDEN, desc = "Bug prevented: sequence number 1 seen with the time from before it (a stale stamp).")
@State
public class StampStress {
    final StampCase c = new StampCase();

    @Actor public void observer() { c.observer(); }
    @Actor public void harness(J_Result r) { c.harness(r); }
}
