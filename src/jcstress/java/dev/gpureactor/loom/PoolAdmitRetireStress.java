package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The fetch-and-add admission ({@link CarrierPool#resumes}, the path every resume takes) vs the
 * retiring CAS, on the real pool's ctl word. Setup: one callback queued, the pool closed, nothing
 * live, so the carrier that runs that callback leaves the word exactly {@code CLOSED} and tries to
 * retire; meanwhile a submitter adds another callback. The arbiter plays the carrier for what is left.
 *
 * <p>Results: r1 = the second callback was admitted (1) or refused (0); r2 = the carriers were
 * retired before the arbiter ran what was left; r3 = the second callback ran; r4 = retired at the end.
 */
@JCStressTest
@Description("Fetch-and-add admission vs retirement: an admitted task runs before the carriers leave, a refused one only after they left; they leave once.")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "Admitted before the retirement (also onto a word that was CLOSED: the CAS failed); it ran, then the carriers left.")
@Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE, desc = "Refused: the carriers had left.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: a task admitted after the carriers left (stranded), a refusal while they stay, or carriers that never leave.")
@State
public class PoolAdmitRetireStress {
    final PoolAdmitRetireCase c = new PoolAdmitRetireCase();

    @Actor public void carrier() { c.carrier(); }
    @Actor public void submitter() { c.submitter(); }
    @Arbiter public void arbiter(IIII_Result r) { c.arbiter(r); }
}
