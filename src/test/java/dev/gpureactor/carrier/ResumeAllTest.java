package dev.gpureactor.carrier;

import dev.gpureactor.core.ErrorCode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CarrierPool#resumeAll}, the one push a parker's scan hands its wakes over with: every task
 * runs once, on the carriers, and in the batch's order on one carrier; one task that blocks its carrier does
 * not hold back the rest of its batch; after the carriers retired the batch is refused, coded, and nothing
 * stays counted.
 */
class ResumeAllTest {
    @Test
    void a_batch_runs_every_task_once_on_the_carriers() throws InterruptedException {
        CarrierPool pool = new CarrierPool(2, w -> { });
        try {
            for (int n : new int[] {1, ForkJoinCarriers.SPREAD_FROM - 1, ForkJoinCarriers.SPREAD_FROM, 1000}) {
                AtomicIntegerArray runs = new AtomicIntegerArray(n);
                AtomicInteger offCarrier = new AtomicInteger();
                CountDownLatch all = new CountDownLatch(n);
                Runnable[] tasks = new Runnable[n];
                for (int i = 0; i < n; i++) {
                    int k = i;
                    tasks[i] = () -> {
                        runs.incrementAndGet(k);
                        if (!pool.isCarrier(Thread.currentThread())) offCarrier.incrementAndGet();
                        all.countDown();
                    };
                }
                pool.resumeAll(tasks);
                assertTrue(all.await(10, TimeUnit.SECONDS), n + " tasks: " + all.getCount() + " never ran");
                for (int i = 0; i < n; i++) assertEquals(1, runs.get(i), n + " tasks: task " + i + " ran " + runs.get(i) + " times");
                assertEquals(0, offCarrier.get(), n + " tasks: ran off the carriers");
            }
        } finally {
            pool.close();
        }
    }

    @Test
    void one_carrier_runs_a_batch_in_its_order() throws InterruptedException {
        // The order is the parker's scan order; a batch resumed out of it touches memory far from the last
        // resume at each step (docs/SCALE.md, "The order of a batch's resumes"). Halving the range into a FIFO
        // queue ran 1,000 tasks as 0, 500, 250, 125, ...
        CarrierPool pool = new CarrierPool(1, w -> { });
        try {
            for (int n : new int[] {ForkJoinCarriers.SPREAD_FROM, ForkJoinCarriers.SPREAD_STEP + 1, 1000}) {
                int[] order = new int[n];
                AtomicInteger next = new AtomicInteger();
                CountDownLatch all = new CountDownLatch(n);
                Runnable[] tasks = new Runnable[n];
                for (int i = 0; i < n; i++) {
                    int k = i;
                    tasks[i] = () -> {
                        order[next.getAndIncrement()] = k;
                        all.countDown();
                    };
                }
                pool.resumeAll(tasks);
                assertTrue(all.await(10, TimeUnit.SECONDS), n + " tasks: " + all.getCount() + " never ran");
                for (int i = 0; i < n; i++) assertEquals(i, order[i], n + " tasks: run " + i + " was task " + order[i]);
            }
        } finally {
            pool.close();
        }
    }

    @Test
    void a_task_that_blocks_its_carrier_does_not_hold_back_the_rest_of_its_batch() throws InterruptedException {
        // One carrier: the task that blocks it is the first of its batch (the spread runs it after
        // forking the rest into its queue), so the rest run only if a spare carrier steals them (the
        // JDK's managed block of the latch, or the carrier watch's compensation).
        CarrierPool pool = new CarrierPool(1, 8, Duration.ofSeconds(3), w -> { });
        CountDownLatch release = new CountDownLatch(1);
        try {
            int n = 100;
            CountDownLatch rest = new CountDownLatch(n - 1);
            Runnable[] tasks = new Runnable[n];
            tasks[0] = () -> {
                try {
                    release.await(); // the carrier blocked while the rest of its batch sits in its queue
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            for (int i = 1; i < n; i++) tasks[i] = rest::countDown;
            pool.resumeAll(tasks);
            assertTrue(rest.await(10, TimeUnit.SECONDS), rest.getCount() + " tasks stayed behind the blocked one");
            assertEquals(1, release.getCount(), "the first task still blocks its carrier");
        } finally {
            release.countDown();
            pool.close();
        }
    }

    @Test
    void a_batch_after_the_carriers_retired_is_refused_coded_and_nothing_stays_counted() throws InterruptedException {
        CarrierPool pool = new CarrierPool(1, w -> { });
        assertTrue(pool.close(Duration.ofSeconds(5)), "nothing lived: the carriers retire at close");
        AtomicInteger ran = new AtomicInteger();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                () -> pool.resumeAll(new Runnable[] {ran::incrementAndGet, ran::incrementAndGet}));
        assertTrue(e.getMessage().contains(ErrorCode.Rejected.name()), e.getMessage());
        assertEquals(0, pool.admitted(), "the refused batch is not counted as admitted");
        assertEquals(0, ran.get());
        pool.resumeAll(new Runnable[0]); // an empty batch is no admission, even after retirement
    }
}
