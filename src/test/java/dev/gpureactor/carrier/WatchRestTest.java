package dev.gpureactor.carrier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The carrier watch's rest ({@link WatchRest}): a quiet pool's watch parks with no timeout, the admission that
 * ends the quiet wakes it, and a carrier blocked right after a rest is still compensated.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WatchRestTest {
    @Test
    void a_quiet_pools_watch_rests_and_the_next_admission_wakes_it() throws InterruptedException {
        CarrierPool pool = new CarrierPool(2, w -> { });
        try {
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            CarrierWatch watch = pool.watch();
            awaitTrue(() -> watch.isResting() && watch.state() == Thread.State.WAITING, Duration.ofSeconds(10),
                    "the watch rests (parked with no timeout) after its quiet looks");
            CountDownLatch ranAgain = new CountDownLatch(1);
            pool.execute(ranAgain::countDown); // the admission that ends the quiet
            assertFalse(watch.isResting(), "the admission claimed the watch's wake");
            awaitTrue(() -> watch.state() != Thread.State.WAITING, Duration.ofSeconds(5), "the watch looks again");
            assertTrue(ranAgain.await(10, TimeUnit.SECONDS));
        } finally {
            pool.close();
        }
    }

    @Test
    void a_carrier_blocked_right_after_a_rest_is_compensated() throws InterruptedException {
        // One carrier: a task that waits inside it (as a pinned virtual thread holds its carrier) and a queued
        // task that would release it. Only the watch's compensation runs the second one, so a watch left resting
        // by the admissions deadlocks the pool.
        CarrierPool pool = new CarrierPool(1, 2, Duration.ofSeconds(3), w -> { });
        try {
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            CarrierWatch watch = pool.watch();
            awaitTrue(() -> watch.isResting() && watch.state() == Thread.State.WAITING, Duration.ofSeconds(10), "the watch rests");
            CountDownLatch release = new CountDownLatch(1), released = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    release.await(); // WAITING inside a task: blocked, as a pinned thread's carrier is
                    released.countDown();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            pool.execute(release::countDown); // queued behind the blocked carrier
            assertTrue(released.await(20, TimeUnit.SECONDS),
                    "a spare carrier ran the queued task (" + pool.compensations() + " compensations)");
            assertEquals(1, pool.compensations(), "the watch compensated the block once");
        } finally {
            pool.close();
        }
    }

    @Test
    void a_rest_announced_on_a_pool_that_is_no_longer_quiet_is_over_at_once() {
        WatchRest rest = new WatchRest(true);
        assertFalse(rest.announce(() -> false), "the pool admitted a task since the look: no park");
        assertFalse(rest.isResting());
        assertFalse(rest.wake(), "nothing to wake");
        assertTrue(rest.announce(() -> true), "still quiet: the watch may park");
        assertTrue(rest.wake(), "the first admission claims the wake");
        assertFalse(rest.wake(), "one admitter unparks, not every one");
        rest.over();
        assertFalse(rest.isResting());
    }

    private static void awaitTrue(BooleanSupplier condition, Duration limit, String what) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() - end < 0) Thread.sleep(5);
        assertTrue(condition.getAsBoolean(), what);
    }
}
