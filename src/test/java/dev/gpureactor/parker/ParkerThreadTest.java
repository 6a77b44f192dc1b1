package dev.gpureactor.parker;

import dev.gpureactor.carrier.CarrierPool;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A parker thread's capture of the wakes of one turn: a long scan's wakes go to the carriers in parts
 * while it goes on; closed after a turn that threw, the woken threads still go to the carriers, and the
 * turn's own failure is the one the loop handles, with whatever the close threw added to it.
 */
class ParkerThreadTest {
    private static ParkerThread capturing(CarrierPool pool, Runnable kept, Runnable batched) {
        ParkerThread me = new ParkerThread(null, "gar-parker-test");
        me.openCapture(pool, true);
        assertTrue(me.capture(pool, kept), "the first wake is kept to host");
        assertTrue(me.capture(pool, batched), "the second is batched");
        return me;
    }

    @Test
    void a_long_scan_hands_its_wakes_over_in_parts_of_batch_max_in_their_order_while_it_goes_on() {
        CarrierPool pool = CarrierPool.withoutCarriers();
        List<Integer> ran = new ArrayList<>();
        int part = ParkerThread.BATCH_MAX;
        ParkerThread me = new ParkerThread(null, "gar-parker-test");
        me.openCapture(pool, true);
        assertTrue(me.capture(pool, () -> ran.add(-1)), "the first wake is kept to host");
        for (int i = 0; i <= 2 * part; i++) {
            int k = i;
            assertTrue(me.capture(pool, () -> ran.add(k)), "wake " + k + " is captured");
            if (i == part - 1) assertFalse(pool.runWaiting(), "a part goes over when the next wake comes, not before");
        }
        while (pool.runWaiting()) { }
        assertEquals(2 * part, ran.size(), "two full parts reached the carriers before the scan ended");
        assertEquals(IntStream.range(0, 2 * part).boxed().toList(), ran, "in the scan's order");
        Runnable kept = me.closeCapture();
        while (pool.runWaiting()) { }
        assertEquals(2 * part + 1, ran.size(), "the close hands over the rest");
        assertEquals(2 * part, ran.getLast());
        assertNotNull(kept, "the kept wake is the turn's to host");
        kept.run();
        assertEquals(-1, ran.getLast());
    }

    @Test
    void after_a_failed_turn_the_kept_and_the_batched_threads_go_to_the_carriers() {
        CarrierPool pool = CarrierPool.withoutCarriers();
        List<String> ran = new ArrayList<>();
        ParkerThread me = capturing(pool, () -> ran.add("kept"), () -> ran.add("batched"));
        IllegalStateException turn = new IllegalStateException("the turn");
        me.closeCaptureAfter(turn);
        while (pool.runWaiting()) { }
        assertEquals(List.of("batched", "kept"), ran, "neither woken thread is dropped");
        assertEquals(0, turn.getSuppressed().length, "nothing failed but the turn");
        assertFalse(me.capture(pool, () -> { }), "the capture is closed");
    }

    @Test
    void when_closing_the_capture_fails_too_the_turns_failure_is_still_the_one_thrown() {
        CarrierPool pool = CarrierPool.withoutCarriers();
        ParkerThread me = capturing(pool, () -> { }, () -> { });
        pool.close(); // no thread and no task: it retires at once, and refuses every resume
        assertTrue(pool.isRetired());
        IllegalStateException turn = new IllegalStateException("the turn");
        me.closeCaptureAfter(turn);
        assertEquals(1, turn.getSuppressed().length, "the push's refusal is added to the turn's failure, not put in its place");
        Throwable push = turn.getSuppressed()[0];
        assertInstanceOf(RejectedExecutionException.class, push);
        assertEquals(1, push.getSuppressed().length, "the kept thread's refusal is added to the push's");
        assertInstanceOf(RejectedExecutionException.class, push.getSuppressed()[0]);
    }
}
