package dev.gpureactor.carrier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The pool's striped live set ({@link LiveThreads}): what close names and how it tells a close from inside. */
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
        // Remove heads, tails and middles of the stripes' lists, in an order unlike the adds.
        for (int i = 0; i < 40; i += 3) live.remove(entries.get(i));
        for (int i = 0; i < 40; i++) assertEquals(i % 3 != 0, live.contains(threads.get(i)), "thread " + i);
        for (int i = 0; i < 40; i++) if (i % 3 != 0) live.remove(entries.get(i));
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
                    live.remove(e);
                    done.countDown();
                });
            }
            assertTrue(done.await(60, TimeUnit.SECONDS));
        }
        assertTrue(live.some(8).isEmpty(), () -> "left behind: " + live.some(8));
    }
}
