package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.LiveThreads;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A new virtual thread's start ({@link CarrierPool#execute} with no thread live: the Executor route's
 * start) vs {@link CarrierPool#close}, on the real pool's ctl word. The pool has no carrier threads;
 * the arbiter plays the carrier ({@link CarrierPool#runWaiting}) and the start task plays the thread
 * (it counts itself live and ends).
 *
 * <p>Results: r1 = the start was admitted (1) or rejected (0); r2 = the carriers were retired before
 * the admitted task ran; r3 = retired after everything ran.
 */
@JCStressTest
@Description("Pool start vs close: a start is admitted and run before the carriers leave, or rejected; the carriers leave once nothing lives.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "Admitted before the close: it ran, then the carriers left.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Rejected after the close: the carriers left at once.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: a task landed after the carriers left (check-then-offer), or the carriers never leave.")
@State
public class PoolStartCloseStress {
    private final CarrierPool pool = CarrierPool.withoutCarriers();
    private volatile int admitted;

    @Actor
    public void starter() {
        try {
            LiveThreads.Entry me = new LiveThreads.Entry();
            pool.execute(() -> { pool.began(me); pool.ended(me); });
            admitted = 1;
        } catch (RejectedExecutionException e) {
            admitted = 0;
        }
    }

    @Actor
    public void closer() {
        pool.close(Duration.ZERO);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = admitted;
        r.r2 = pool.isRetired() ? 1 : 0;
        while (pool.runWaiting()) {
            // the carrier runs what was admitted
        }
        r.r3 = pool.isRetired() ? 1 : 0;
    }
}
