package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.VirtualThreads;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A virtual thread built without a scheduler inside one of the pool's threads ({@code Thread.ofVirtual()},
 * {@code Executors.newVirtualThreadPerTaskExecutor()}) takes the pool as its scheduler (the JDK's rule): the pool
 * adopts it, so it counts as live, is named at close, and is never stranded by the carriers' retirement. Before,
 * such a child was invisible: a close after its parent ended retired the carriers while it slept, and its resume
 * was refused (an outside probe: stranded 5 of 5, {@code RUNNABLE} for good).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdoptedThreadsTest {
    /** A hang bound, not a speed target. */
    private static final long HANG_BOUND_S = 10;

    /** A child's work: parked 300 ms in a sleep (its resume comes after its parent or callback ended), then done. */
    private static void sleepThenCountDown(CountDownLatch done) {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        done.countDown();
    }

    private static CarrierPool pool(List<Warning> warnings) {
        return new CarrierPool(1, 256, Duration.ofSeconds(30), warnings::add);
    }

    @Test
    void a_child_of_a_pool_thread_that_sleeps_across_the_close_runs_to_its_end_and_the_close_waits_for_it() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        CarrierPool pool = pool(warnings);
        ThreadFactory factory = pool.threadFactory(VirtualThreads.builder(pool));
        AtomicReference<Thread> child = new AtomicReference<>();
        AtomicReference<String> childCarrier = new AtomicReference<>();
        CountDownLatch childDone = new CountDownLatch(1);
        Thread parent = factory.newThread(() -> child.set(Thread.ofVirtual().start(() -> {
            childCarrier.set(Thread.currentThread().toString()); // "VirtualThread[#n]/runnable@<carrier>"
            sleepThenCountDown(childDone);
        })));
        parent.start();
        parent.join();
        while (childCarrier.get() == null) Thread.sleep(1);
        assertTrue(childCarrier.get().contains("gar-carrier-"), "the child runs on the pool: " + childCarrier.get());
        // Adopted as its first run ends (it parks in sleep): counted live from then, its parent having ended.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_BOUND_S);
        while (pool.liveThreads() != 1 && childDone.getCount() > 0 && System.nanoTime() < deadline) Thread.sleep(1);
        assertEquals(1, pool.liveThreads(), "the sleeping child counts as live");

        assertTrue(pool.close(Duration.ofSeconds(HANG_BOUND_S)), "the close waited for the child and the carriers retired");
        assertTrue(childDone.await(0, TimeUnit.SECONDS), "the child ran to its end before the retirement");
        child.get().join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
        assertFalse(child.get().isAlive(), "the child ended");
        assertTrue(warnings.isEmpty(), "no LiveAtClose: " + warnings);
        assertTrue(pool.awaitExit(Duration.ofSeconds(HANG_BOUND_S)), "the carriers left");
    }

    @Test
    void a_child_of_a_callback_thread_is_adopted_too() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        CarrierPool pool = pool(warnings);
        CountDownLatch childDone = new CountDownLatch(1);
        AtomicReference<Thread> child = new AtomicReference<>();
        AtomicReference<Thread> callback = new AtomicReference<>();
        CountDownLatch callbackDone = new CountDownLatch(1);
        pool.callbacks().execute(() -> { // a stage callback's thread (gar-callback), with a scheduler of its own
            callback.set(Thread.currentThread());
            child.set(Thread.ofVirtual().start(() -> sleepThenCountDown(childDone)));
            callbackDone.countDown();
        });
        assertTrue(callbackDone.await(HANG_BOUND_S, TimeUnit.SECONDS));
        callback.get().join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S)); // the callback's thread has ended: only the child lives
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_BOUND_S);
        while (pool.liveThreads() != 1 && childDone.getCount() > 0 && System.nanoTime() < deadline) Thread.sleep(1);
        assertEquals(1, pool.liveThreads(), "the sleeping child counts as live, its callback having ended");
        assertTrue(pool.close(Duration.ofSeconds(HANG_BOUND_S)), "the close waited for the child");
        assertTrue(childDone.await(0, TimeUnit.SECONDS), "the child ran to its end before the retirement");
        child.get().join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
        assertFalse(child.get().isAlive());
        assertTrue(pool.awaitExit(Duration.ofSeconds(HANG_BOUND_S)), "the carriers left");
    }

    @Test
    void children_started_after_the_close_by_a_live_pool_thread_are_named_at_close_and_finish() throws Exception {
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        CarrierPool pool = pool(warnings);
        ThreadFactory factory = pool.threadFactory(VirtualThreads.builder(pool));
        CountDownLatch closed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread parent = factory.newThread(() -> {
            try {
                closed.await();
                try (ExecutorService children = Executors.newVirtualThreadPerTaskExecutor()) {
                    for (int i = 0; i < 4; i++) {
                        children.submit(() -> {
                            release.await(); // parks: a resume after the parent's own end would strand it
                            Thread.sleep(50);
                            return null;
                        });
                    }
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        parent.start();
        Thread closer = Thread.ofPlatform().start(() -> pool.close(Duration.ofMillis(300)));
        while (!pool.isClosed()) Thread.sleep(1);
        closed.countDown();
        closer.join();
        // The close waited its grace for the parent and its four children, all parked on the latch.
        Warning live = warnings.stream().filter(w -> w.code() == ErrorCode.LiveAtClose).findFirst().orElseThrow();
        assertTrue(live.message().contains("5 virtual thread"), "the parent and its four children are named live: " + live.message());
        release.countDown();
        parent.join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
        assertFalse(parent.isAlive(), "the parent's executor closed: every child ran to its end");
        assertNull(failure.get(), "no child was refused");
        assertTrue(pool.awaitExit(Duration.ofSeconds(HANG_BOUND_S)), "the carriers left after the last child");
    }
}
