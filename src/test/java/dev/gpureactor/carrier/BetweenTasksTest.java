package dev.gpureactor.carrier;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The carriers' between-tasks look ({@link CarrierPool#betweenTasks}): a burst of short tasks begins at most
 * one look per {@link CarrierCapture#LOOK_GAP_NANOS} on a carrier, and a task after a quiet spell is still
 * followed by one.
 */
class BetweenTasksTest {
    @Test
    void a_burst_of_short_tasks_begins_at_most_one_look_per_gap_and_a_task_after_a_quiet_spell_one() throws InterruptedException {
        CarrierPool pool = new CarrierPool(1, w -> { });
        try {
            AtomicInteger looks = new AtomicInteger();
            pool.betweenTasks(looks::incrementAndGet);
            for (int round = 0; round < 3; round++) { // the first rounds warm the path; each is judged alone
                int n = 10_000;
                CountDownLatch all = new CountDownLatch(n);
                Runnable[] tasks = new Runnable[n];
                for (int i = 0; i < n; i++) tasks[i] = all::countDown;
                int before = looks.get();
                long start = System.nanoTime();
                pool.resumeAll(tasks); // a mass wake's shape: one push, run back to back on the one carrier
                assertTrue(all.await(10, TimeUnit.SECONDS), all.getCount() + " tasks never ran");
                long elapsed = System.nanoTime() - start;
                int began = looks.get() - before;
                // One carrier, one look at most per gap over the burst, one at its start, and one the round before may
                // have begun after its last task ran and the count was read; a look after each task began 10,000.
                long most = elapsed / CarrierCapture.LOOK_GAP_NANOS + 2;
                assertTrue(began <= most, "round " + round + ": " + began + " looks over " + n + " tasks in " + elapsed / 1000
                        + " us; at most " + most + " may begin");
            }
            int before = looks.get();
            Thread.sleep(1); // a quiet spell, longer than a gap
            CountDownLatch one = new CountDownLatch(1);
            pool.resumeAll(new Runnable[] {one::countDown});
            assertTrue(one.await(10, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (looks.get() == before && System.nanoTime() - deadline < 0) Thread.sleep(1); // the look follows the task
            assertTrue(looks.get() > before, "no look after a task that came after a quiet spell");
        } finally {
            pool.close();
        }
    }
}
