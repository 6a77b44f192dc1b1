package dev.gpureactor.parker;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The reporter: reports delivered in order on its own thread, a blocked delivery never blocks a post, past
 * {@link Reporter#MAX_PENDING} a report is dropped (its post says so), a flush waits for what was posted before it, and the
 * thread leaves once closed (and comes back for a later post). Every bound is a hang guard.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReporterTest {
    private static final Duration GUARD = Duration.ofSeconds(30);

    @Test
    void reports_are_delivered_in_order_on_the_reporters_thread() {
        Reporter r = new Reporter("gar-reporter-test");
        List<Integer> got = new CopyOnWriteArrayList<>();
        List<String> on = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 500; i++) {
            int n = i;
            assertTrue(r.post(() -> { got.add(n); on.add(Thread.currentThread().getName()); }));
        }
        assertTrue(r.flush(GUARD));
        List<Integer> want = new ArrayList<>();
        for (int i = 0; i < 500; i++) want.add(i);
        assertEquals(want, got);
        assertTrue(on.stream().allMatch("gar-reporter-test"::equals), on.toString());
        r.close();
        assertTrue(r.awaitLeft(System.nanoTime() + GUARD.toNanos()));
    }

    @Test
    void a_delivery_that_blocks_blocks_no_post_and_past_the_bound_reports_are_dropped_and_counted() throws Exception {
        Reporter r = new Reporter("gar-reporter-test");
        CountDownLatch inside = new CountDownLatch(1), release = new CountDownLatch(1);
        assertTrue(r.post(() -> {
            inside.countDown();
            try { release.await(); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        }));
        assertTrue(inside.await(GUARD.toSeconds(), TimeUnit.SECONDS));
        int posted = 0, refused = 0;
        for (int i = 0; i < Reporter.MAX_PENDING + 100; i++) {
            if (r.post(() -> { })) posted++; else refused++;
        }
        assertEquals(Reporter.MAX_PENDING - 1, posted, "the blocked one holds a place");
        assertEquals(101, refused, "each refused post is one report dropped");
        assertFalse(r.flush(Duration.ofMillis(50)), "a flush is bounded while the delivery blocks");
        release.countDown();
        assertTrue(r.flush(GUARD), "then every report posted before it was delivered or dropped");
        r.close();
        assertTrue(r.awaitLeft(System.nanoTime() + GUARD.toNanos()));
    }

    @Test
    void closed_the_thread_leaves_and_a_later_post_still_gets_delivered() throws Exception {
        Reporter r = new Reporter("gar-reporter-test");
        CountDownLatch first = new CountDownLatch(1), second = new CountDownLatch(1);
        r.post(first::countDown);
        assertTrue(first.await(GUARD.toSeconds(), TimeUnit.SECONDS));
        r.close();
        assertTrue(r.awaitLeft(System.nanoTime() + GUARD.toNanos()), "closed, the lingering thread leaves at once");
        assertFalse(r.running());
        r.post(second::countDown); // a parker's last event after the reactor's close
        assertTrue(second.await(GUARD.toSeconds(), TimeUnit.SECONDS));
        assertTrue(r.awaitLeft(System.nanoTime() + GUARD.toNanos()));
    }

    @Test
    void a_report_that_throws_stops_no_later_one() {
        Reporter r = new Reporter("gar-reporter-test");
        List<Integer> got = new CopyOnWriteArrayList<>();
        r.post(() -> { throw new IllegalStateException("a sink that throws"); });
        r.post(() -> got.add(1));
        assertTrue(r.flush(GUARD));
        assertEquals(List.of(1), got);
        r.close();
    }
}
