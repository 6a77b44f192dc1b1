package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierTally;
import dev.gpureactor.carrier.CarrierPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A carrier's own tally ({@link CarrierTally}): exact task counts, busy time from one task in
 * {@link CarrierTally#SAMPLE} (the first always), and the pool's sums over its carriers.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CarrierTallyTest {
    @Test
    void the_first_task_is_timed_at_weight_one_then_one_in_SAMPLE_at_weight_SAMPLE() {
        CarrierTally t = new CarrierTally();
        assertEquals(1, t.timedWeight(), "a carrier that ran anything shows busy time");
        t.ran(5);
        int draws = 80_000, timed = 0;
        for (int i = 0; i < draws; i++) {
            long w = t.timedWeight();
            assertTrue(w == 0 || w == CarrierTally.SAMPLE, "weight " + w);
            if (w != 0) timed++;
            t.ran(w * 10);
        }
        double share = (double) timed / draws;
        assertEquals(1.0 / CarrierTally.SAMPLE, share, 0.01, "timed share");
        assertEquals(draws + 1L, t.tasks());
        assertEquals(5 + 10L * CarrierTally.SAMPLE * timed, t.busyNanos(), "weighted times add up");
        // Tasks of 10 ns each: the estimate is within a few per cent of the 800,005 ns they took.
        assertEquals(5 + 10.0 * draws, t.busyNanos(), 0.05 * 10 * draws);
    }

    @Test
    void a_fixed_stride_would_alias_an_alternating_workload_the_sampler_does_not() {
        CarrierTally t = new CarrierTally();
        t.ran(t.timedWeight());
        long exact = 1, estimate = 1;
        for (int i = 0; i < 160_000; i++) {
            long task = (i & 1) == 0 ? 1_000 : 10; // long and short tasks in turn
            exact += task;
            long w = t.timedWeight();
            estimate += w * task;
            t.ran(w * task);
        }
        assertEquals(estimate, t.busyNanos());
        assertEquals(exact, estimate, 0.05 * exact, "unbiased on an alternating workload");
    }

    @Test
    void the_pool_counts_every_task_its_carriers_ran() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(2).build()) {
            CarrierPool pool = r.pool();
            long before = pool.tasksRun();
            int n = 10_000;
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) pool.resumes().execute(done::countDown); // plain tasks: one run each (a callback is a virtual thread, maybe resumed)
            assertTrue(done.await(60, TimeUnit.SECONDS));
            // The count is written after each task returns: wait for the last writes, then it is exact.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (pool.tasksRun() - before < n && System.nanoTime() < deadline) Thread.onSpinWait();
            assertEquals(n, pool.tasksRun() - before);
            assertEquals(pool.tasksRun(), r.stats().polls());
            assertTrue(pool.busyNanos() > 0);
        }
    }
}
