package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.PoolControls;

import org.openjdk.jcstress.infra.results.IIII_Result;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

/**
 * The body of {@link PoolAdmitRetireStress}, {@link PoolResumeAllRetireStress} and of
 * {@link PoolAdmitRetireNegativeControl}, written once: the control differs only by the pool's
 * {@code retiresByCas} (false: the carriers retire on any update that leaves the word {@code CLOSED},
 * and the retired bit is never set); the batch test only by its submitter's call (a parker's batch,
 * {@link CarrierPool#resumeAll}: one add of every task on the word).
 */
final class PoolAdmitRetireCase {
    private final CarrierPool pool;
    /** Whether the submitter hands over a batch ({@link CarrierPool#resumeAll}) rather than one resume. */
    private final boolean batch;
    private volatile int admitted, ran;

    /** The test's case: as the library builds it. */
    PoolAdmitRetireCase() {
        this(true, false);
    }

    /**
     * A negative control's case ({@code retiresByCas} changes its one line), or the batch test's
     * ({@code batch}: the submitter's call).
     */
    PoolAdmitRetireCase(boolean retiresByCas, boolean batch) {
        this.batch = batch;
        pool = CarrierPool.withoutCarriers(new PoolControls(true, retiresByCas, true));
        pool.resumes().execute(() -> { }); // queued, not run: it keeps the carriers
        pool.close(Duration.ZERO);
        if (pool.isRetired()) throw new AssertionError("setup");
    }

    void carrier() {
        pool.runWaiting(); // the last task: the word becomes CLOSED, and the carrier tries to retire
    }

    void submitter() {
        try {
            if (batch) pool.resumeAll(new Runnable[] {() -> ran = 1, () -> ran = 1});
            else pool.resumes().execute(() -> ran = 1);
            admitted = 1;
        } catch (RejectedExecutionException e) {
            admitted = 0;
        }
    }

    void arbiter(IIII_Result r) {
        r.r1 = admitted;
        r.r2 = pool.isRetired() ? 1 : 0;
        while (pool.runWaiting()) {
            // the carrier runs what was admitted
        }
        r.r3 = ran;
        r.r4 = pool.isRetired() ? 1 : 0;
    }
}
