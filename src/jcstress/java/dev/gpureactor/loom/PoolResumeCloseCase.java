package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.LiveThreads;
import dev.gpureactor.carrier.PoolControls;

import org.openjdk.jcstress.infra.results.II_Result;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

/**
 * The body of {@link PoolResumeCloseStress} and of {@link PoolResumeCloseNegativeControl}, written
 * once: the control differs only by the pool's {@code tellsResumes} (false: the Executor route takes
 * every call as a start).
 */
final class PoolResumeCloseCase {
    private final CarrierPool pool;
    private volatile int admitted;
    /** The thread's entry in the live set, from its first part (the setup; the actors start after it). */
    private LiveThreads.Entry thread;

    /** The test's case: as the library builds it. */
    PoolResumeCloseCase() {
        this(true);
    }

    /** A negative control's case: {@code tellsResumes} changes its one line. */
    PoolResumeCloseCase(boolean tellsResumes) {
        pool = CarrierPool.withoutCarriers(new PoolControls(tellsResumes, true, true));
        LiveThreads.Entry me = new LiveThreads.Entry();
        pool.execute(() -> { pool.began(me); thread = me; }); // the thread starts, counts itself live, and parks
        if (!pool.runWaiting() || pool.liveThreads() != 1) throw new AssertionError("setup");
    }

    void resumer() {
        try {
            pool.execute(() -> pool.ended(thread)); // the thread continues and ends
            admitted = 1;
        } catch (RejectedExecutionException e) {
            admitted = 0;
            pool.ended(thread); // stands for the stranded thread, so the arbiter's count stays meaningful
        }
    }

    void closer() {
        pool.close(Duration.ZERO);
    }

    void arbiter(II_Result r) {
        while (pool.runWaiting()) {
            // the carrier runs what was admitted
        }
        r.r1 = admitted;
        r.r2 = pool.isRetired() ? 1 : 0;
    }
}
