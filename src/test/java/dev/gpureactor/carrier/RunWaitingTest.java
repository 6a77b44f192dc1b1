package dev.gpureactor.carrier;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CarrierPool#runWaiting}, with which a relieved parker thread runs a task still waiting for
 * a carrier before it stands by: it takes a task pushed from outside that no carrier took, runs it on
 * the calling thread and counts it done; every task runs once, whether a carrier or a caller takes it.
 */
class RunWaitingTest {
    @Test
    void a_task_waiting_behind_a_busy_carrier_runs_once_on_the_calling_thread_and_is_counted_done() throws InterruptedException {
        // One carrier and no spare: a task that keeps it busy (running, not blocked) leaves the next
        // one waiting in the submission queue.
        CarrierPool pool = new CarrierPool(1, 1, Duration.ofSeconds(3), w -> { });
        AtomicBoolean release = new AtomicBoolean();
        CountDownLatch busy = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                busy.countDown();
                while (!release.get()) Thread.onSpinWait();
            });
            assertTrue(busy.await(10, TimeUnit.SECONDS), "the carrier took the busy task");
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            AtomicInteger runs = new AtomicInteger();
            pool.execute(() -> {
                runs.incrementAndGet();
                ranOn.set(Thread.currentThread());
            });
            assertEquals(2, pool.admitted(), "the busy task and the waiting one are admitted");
            assertTrue(pool.runWaiting(), "a task waited for the carrier");
            assertSame(Thread.currentThread(), ranOn.get(), "it ran on the calling thread");
            assertEquals(1, runs.get());
            assertEquals(1, pool.admitted(), "it was counted done; the busy one is still running");
            assertFalse(pool.runWaiting(), "nothing else waits; the running task is the carrier's");
        } finally {
            release.set(true);
            pool.close();
        }
    }

    @Test
    void every_task_runs_once_whether_a_carrier_or_a_caller_takes_it() throws InterruptedException {
        CarrierPool pool = new CarrierPool(2, w -> { });
        int n = 20_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        CountDownLatch all = new CountDownLatch(n);
        AtomicInteger byHelper = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        Thread helper = Thread.ofPlatform().name("run-waiting-helper").start(() -> {
            while (!stop.get()) {
                if (pool.runWaiting()) byHelper.incrementAndGet();
                else Thread.onSpinWait();
            }
        });
        try {
            for (int i = 0; i < n; i++) {
                int k = i;
                pool.execute(() -> {
                    runs.incrementAndGet(k);
                    all.countDown();
                });
            }
            assertTrue(all.await(30, TimeUnit.SECONDS), all.getCount() + " tasks never ran");
            stop.set(true);
            helper.join(10_000);
            for (int i = 0; i < n; i++) assertEquals(1, runs.get(i), "task " + i + " ran " + runs.get(i) + " times");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pool.admitted() != 0 && System.nanoTime() - deadline < 0) Thread.sleep(1);
            assertEquals(0, pool.admitted(), "every task counted done once (" + byHelper.get() + " by the caller)");
        } finally {
            stop.set(true);
            pool.close();
        }
    }
}
