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

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

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
    final CarrierPool pool;
    private volatile int admitted;
    /** The thread's entry in the live set, from its first part (the setup; the actors start after it). */
    private LiveThreads.Entry thread;

    public PoolResumeCloseStress() { this(true); }

    PoolResumeCloseStress(boolean tellsResumes) {
        pool = CarrierPool.withoutCarriers(tellsResumes, true);
        pool.execute(() -> thread = pool.began()); // the thread starts, counts itself live, and parks
        if (!pool.runQueued() || pool.liveThreads() != 1) throw new AssertionError("setup");
    }

    @Actor
    public void resumer() {
        try {
            pool.execute(() -> pool.ended(thread)); // the thread continues and ends
            admitted = 1;
        } catch (RejectedExecutionException e) {
            admitted = 0;
            pool.ended(thread); // stands for the stranded thread, so the arbiter's count stays meaningful
        }
    }

    @Actor
    public void closer() {
        pool.close(Duration.ZERO);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        while (pool.runQueued()) {
            // the carrier runs what was admitted
        }
        r.r1 = admitted;
        r.r2 = pool.isRetired() ? 1 : 0;
    }
}
