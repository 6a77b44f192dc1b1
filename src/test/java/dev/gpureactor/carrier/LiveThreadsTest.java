package dev.gpureactor.carrier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The pool's striped live set ({@link LiveThreads}): what close names, how it tells a close from inside, and its sweep's bound. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LiveThreadsTest {
    @Test
    void a_thread_is_found_between_its_link_and_its_remove_and_named_up_to_the_limit() {
        LiveThreads live = new LiveThreads(1); // 4 stripes: 40 threads share them
        List<Thread> threads = new ArrayList<>();
        List<LiveThreads.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Thread t = Thread.ofVirtual().unstarted(() -> { });
            threads.add(t);
            LiveThreads.Entry e = new LiveThreads.Entry();
            live.link(e, t);
            entries.add(e);
        }
        for (Thread t : threads) assertTrue(live.contains(t));
        assertFalse(live.contains(Thread.ofVirtual().unstarted(() -> { })));
        assertEquals(8, live.some(8).size());
        assertEquals(40, new HashSet<>(live.some(100)).size());
        // Clear heads, tails and middles of the stripes' stacks, in an order unlike the links.
        for (int i = 0; i < 40; i += 3) live.leave(entries.get(i));
        for (int i = 0; i < 40; i++) assertEquals(i % 3 != 0, live.contains(threads.get(i)), "thread " + i);
        for (int i = 0; i < 40; i++) if (i % 3 != 0) live.leave(entries.get(i));
        assertTrue(live.some(8).isEmpty());
    }

    @Test
    void threads_linking_and_removing_at_once_leave_it_empty() throws Exception {
        LiveThreads live = new LiveThreads(2);
        int n = 20_000;
        CountDownLatch done = new CountDownLatch(n);
        try (var exec = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                exec.execute(() -> {
                    LiveThreads.Entry e = new LiveThreads.Entry();
                    live.link(e, Thread.currentThread());
                    if (!live.contains(Thread.currentThread())) throw new AssertionError("not found while live");
                    Thread.yield();
                    live.leave(e);
                    done.countDown();
                });
            }
            assertTrue(done.await(60, TimeUnit.SECONDS));
        }
        assertTrue(live.some(8).isEmpty(), () -> "left behind: " + live.some(8));
    }

    /** Two steps' entries on each of the 4 stripes (measured: at most 2 × live + 29 over 200,000 links). */
    private static final int BOUND_SLACK = 4 * 2 * LiveThreads.SWEEP_STEP;

    @Test
    void ended_threads_entries_are_swept_as_threads_link_so_a_stripe_holds_at_most_its_sweep_bound() {
        LiveThreads live = new LiveThreads(4, LiveThreads.SWEEP_EVERY, true);
        List<Thread> kept = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            LiveThreads.Entry e = new LiveThreads.Entry();
            Thread t = Thread.ofVirtual().unstarted(() -> { });
            live.link(e, t);
            if (i % 100 == 0) kept.add(t); else live.leave(e);
            // A pass visits four entries a push, so it outruns them: about twice the live entries, plus a few steps a stripe.
            if (i % 997 == 0) assertTrue(live.entries() <= 2 * kept.size() + BOUND_SLACK, () -> "entries " + live.entries() + " with " + kept.size() + " live");
        }
        assertTrue(live.entries() <= 2 * kept.size() + BOUND_SLACK, () -> "entries " + live.entries() + " with " + kept.size() + " live");
        for (Thread t : kept) assertTrue(live.contains(t), "a live thread swept away");
        assertEquals(kept.size(), new HashSet<>(live.some(2 * kept.size())).size());
    }

    @Test
    void an_ended_threads_entry_does_not_keep_the_thread_from_the_collector() throws Exception {
        LiveThreads live = new LiveThreads(1, 0, true); // no sweep: the cleared entry stays on its stripe
        LiveThreads.Entry e = new LiveThreads.Entry();
        Thread t = Thread.ofVirtual().unstarted(() -> { });
        WeakReference<Thread> ref = new WeakReference<>(t);
        live.link(e, t);
        live.leave(e);
        t = null;
        for (int i = 0; i < 20 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(ref.get(), "an ended thread is still reachable from its entry");
        assertEquals(1, live.entries());
    }
}
