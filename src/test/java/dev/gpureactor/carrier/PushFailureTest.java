package dev.gpureactor.carrier;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pushes that run out of memory. One the JDK made (it submits the resume again after a pause,
 * VirtualThread.submitRunContinuation) takes its admission back, so the retry is counted once and the
 * carriers still retire once every task ran: a count left behind would keep them for ever. The wakes a
 * parker captured (their unpark returned: nobody else would resume them) are pushed again until they
 * are queued: a batch stopped half-way pushes the rest one by one, and a single one tries again.
 */
class PushFailureTest {
    @Test
    void a_start_and_a_resume_whose_push_runs_out_of_memory_are_not_counted_and_the_retry_is_counted_once() throws Exception {
        AtomicInteger faults = new AtomicInteger(2); // the next two pushes fail
        OutOfMemoryError oom = new OutOfMemoryError("injected: no memory for the queue's node");
        CarrierPool pool = CarrierPool.withoutCarriers(() -> {
            if (faults.getAndDecrement() > 0) throw oom;
        });
        AtomicInteger ran = new AtomicInteger();
        Runnable task = ran::incrementAndGet;
        assertSame(oom, assertThrows(OutOfMemoryError.class, () -> pool.onStart(task)));
        assertEquals(0, pool.admitted(), "a start whose push failed is not counted");
        assertSame(oom, assertThrows(OutOfMemoryError.class, () -> pool.admitResume(task)));
        assertEquals(0, pool.admitted(), "a resume whose push failed is not counted");
        pool.admitResume(task); // the JDK's retry
        assertEquals(1, pool.admitted(), "the retry, once");
        assertTrue(pool.runWaiting());
        assertEquals(1, ran.get());
        assertEquals(0, pool.admitted());
        assertTrue(pool.close(Duration.ZERO), "nothing left to run: the carriers retire");
        assertTrue(pool.isRetired());
    }

    @Test
    void a_batch_whose_push_runs_out_of_memory_half_way_queues_every_task_once() {
        AtomicInteger pushes = new AtomicInteger();
        CarrierPool pool = CarrierPool.withoutCarriers(() -> {
            if (pushes.incrementAndGet() == 2) throw new OutOfMemoryError("injected: the second push");
        });
        AtomicInteger a = new AtomicInteger(), b = new AtomicInteger(), c = new AtomicInteger();
        pool.resumeAll(new Runnable[] {a::incrementAndGet, b::incrementAndGet, c::incrementAndGet});
        assertEquals(3, pool.admitted(), "each admitted once");
        while (pool.runWaiting()) { }
        assertEquals(List.of(1, 1, 1), List.of(a.get(), b.get(), c.get()), "each queued and run once");
        assertEquals(0, pool.admitted());
        assertTrue(pool.close(Duration.ZERO), "nothing left to run: the carriers retire");
    }

    @Test
    void a_captured_wake_whose_push_runs_out_of_memory_is_pushed_again_until_queued() {
        AtomicInteger faults = new AtomicInteger(2);
        CarrierPool pool = CarrierPool.withoutCarriers(() -> {
            if (faults.getAndDecrement() > 0) throw new OutOfMemoryError("injected: the first two pushes");
        });
        AtomicInteger ran = new AtomicInteger();
        pool.resumeSurely(ran::incrementAndGet); // returns once queued (two pauses of 100 ms)
        assertEquals(1, pool.admitted());
        assertTrue(pool.runWaiting());
        assertFalse(pool.runWaiting(), "queued once");
        assertEquals(1, ran.get());
        assertTrue(pool.close(Duration.ZERO));
    }
}
