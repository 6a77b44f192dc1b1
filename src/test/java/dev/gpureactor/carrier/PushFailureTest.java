package dev.gpureactor.carrier;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A push that fails after its admission (out of memory: the JDK then submits the resume again after a
 * pause, VirtualThread.submitRunContinuation) takes the admission back: the retry is counted once,
 * and the carriers still retire once every task ran. A count left behind would keep them for ever.
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
}
