package dev.gpureactor.carrier;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CarrierPool#runParts}, how a parker's large scan is settled on the carriers: each part runs
 * once, on a carrier; the threads a part wakes are resumed together once it ends (not pushed one by
 * one while it runs, where each push would signal an idle carrier), and all of them, even when the
 * part throws half-way.
 */
class RunPartsTest {
    private static final int WAKES = 50;

    @Test
    void each_part_runs_once_on_a_carrier_and_every_wake_it_makes_runs_once() throws InterruptedException {
        CarrierPool pool = new CarrierPool(2, w -> { });
        try {
            int parts = 20;
            AtomicIntegerArray partRuns = new AtomicIntegerArray(parts);
            AtomicIntegerArray wakeRuns = new AtomicIntegerArray(parts * WAKES);
            AtomicInteger offCarrier = new AtomicInteger();
            CountDownLatch all = new CountDownLatch(parts * WAKES);
            Runnable[] lot = new Runnable[parts];
            for (int p = 0; p < parts; p++) {
                int part = p;
                lot[p] = () -> {
                    partRuns.incrementAndGet(part);
                    if (!pool.isCarrier(Thread.currentThread())) offCarrier.incrementAndGet();
                    for (int i = 0; i < WAKES; i++) {
                        int k = part * WAKES + i;
                        pool.onContinue(() -> {
                            wakeRuns.incrementAndGet(k);
                            if (!pool.isCarrier(Thread.currentThread())) offCarrier.incrementAndGet();
                            all.countDown();
                        });
                    }
                };
            }
            pool.runParts(lot);
            assertTrue(all.await(10, TimeUnit.SECONDS), all.getCount() + " wakes never ran");
            for (int p = 0; p < parts; p++) assertEquals(1, partRuns.get(p), "part " + p + " ran " + partRuns.get(p) + " times");
            for (int k = 0; k < parts * WAKES; k++) assertEquals(1, wakeRuns.get(k), "wake " + k + " ran " + wakeRuns.get(k) + " times");
            assertEquals(0, offCarrier.get(), "parts and their wakes run on the carriers");
            assertTrue(pool.close(Duration.ofSeconds(5)), "nothing stays admitted: the carriers retire");
        } finally {
            pool.close();
        }
    }

    @Test
    void a_part_s_wakes_wait_for_the_part_to_end_and_then_all_run() throws InterruptedException {
        // Two carriers: a wake pushed while the part runs would be taken by the idle one at once.
        CarrierPool pool = new CarrierPool(2, w -> { });
        try {
            AtomicInteger ranDuringPart = new AtomicInteger(-1);
            AtomicInteger ran = new AtomicInteger();
            CountDownLatch all = new CountDownLatch(WAKES), partEnded = new CountDownLatch(1);
            pool.runParts(new Runnable[] {() -> {
                for (int i = 0; i < WAKES; i++) {
                    pool.onContinue(() -> {
                        ran.incrementAndGet();
                        all.countDown();
                    });
                }
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
                while (System.nanoTime() - end < 0) Thread.onSpinWait(); // the other carrier is idle all this while
                ranDuringPart.set(ran.get());
                partEnded.countDown();
            }});
            assertTrue(partEnded.await(10, TimeUnit.SECONDS), "the part never ended");
            assertTrue(all.await(10, TimeUnit.SECONDS), all.getCount() + " wakes never ran");
            assertEquals(0, ranDuringPart.get(), "a wake ran before its part ended");
        } finally {
            pool.close();
        }
    }

    @Test
    void a_part_that_throws_half_way_still_resumes_every_thread_it_woke() throws InterruptedException {
        CarrierPool pool = new CarrierPool(2, w -> { });
        try {
            CountDownLatch all = new CountDownLatch(WAKES);
            pool.runParts(new Runnable[] {() -> {
                for (int i = 0; i < WAKES; i++) pool.onContinue(all::countDown);
                throw new IllegalStateException("a part's failure after its wakes");
            }});
            assertTrue(all.await(10, TimeUnit.SECONDS), all.getCount() + " woken threads were dropped with the failed part");
            assertTrue(pool.close(Duration.ofSeconds(5)), "nothing stays admitted: the carriers retire");
        } finally {
            pool.close();
        }
    }
}
