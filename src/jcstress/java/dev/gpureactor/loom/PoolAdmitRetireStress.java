package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

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
    final CarrierPool pool;
    private volatile int admitted, ran;

    public PoolAdmitRetireStress() { this(true); }

    PoolAdmitRetireStress(boolean retiresByCas) {
        pool = CarrierPool.withoutCarriers(true, retiresByCas);
        pool.resumes().execute(() -> { }); // queued, not run: it keeps the carriers
        pool.close(Duration.ZERO);
        if (pool.isRetired()) throw new AssertionError("setup");
    }

    @Actor
    public void carrier() {
        pool.runQueued(); // the last task: the word becomes CLOSED, and the carrier tries to retire
    }

    @Actor
    public void submitter() {
        try {
            pool.resumes().execute(() -> ran = 1);
            admitted = 1;
        } catch (RejectedExecutionException e) {
            admitted = 0;
        }
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = admitted;
        r.r2 = pool.isRetired() ? 1 : 0;
        while (pool.runQueued()) {
            // the carrier runs what was admitted
        }
        r.r3 = ran;
        r.r4 = pool.isRetired() ? 1 : 0;
    }
}
