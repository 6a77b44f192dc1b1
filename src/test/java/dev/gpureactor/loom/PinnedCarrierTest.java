package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A virtual thread blocked while pinned does not starve its pool ({@link CarrierWatch}). The
 * deadlock, built on purpose on one carrier: a holder takes a lock and parks (unmounted); a second
 * thread begins a class initialiser that waits for that lock (a class initialiser pins: its carrier
 * blocks); the holder is woken, and needs a carrier to release the lock. Without compensation it
 * is queued behind the pinned thread for ever (seen: the same program on the pool before the watch,
 * and on the JDK's own scheduler at parallelism 1, never finished). With it, an extra carrier runs
 * the holder, the lock is released, the initialiser finishes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PinnedCarrierTest {
    /** A lock and an initialiser that waits for it (a class initialises once per JVM). */
    static final ReentrantLock FORK_JOIN_LOCK = new ReentrantLock();
    static final CountDownLatch FORK_JOIN_INIT = new CountDownLatch(1);

    static final class ForkJoinInit {
        static {
            FORK_JOIN_INIT.countDown();
            FORK_JOIN_LOCK.lock();
            FORK_JOIN_LOCK.unlock();
        }

        static void touch() { }
    }

    @Test
    void fork_join_a_class_initialiser_waiting_for_an_unmounted_holder_does_not_deadlock_one_carrier() throws Exception {
        pinnedWaitsForUnmountedHolder(FORK_JOIN_LOCK, FORK_JOIN_INIT, ForkJoinInit::touch);
    }

    private static void pinnedWaitsForUnmountedHolder(ReentrantLock lock, CountDownLatch inInit,
                                                      Runnable touch) throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(1).build()) {
            CountDownLatch holding = new CountDownLatch(1), done = new CountDownLatch(2);
            Thread holder = r.threadFactory().newThread(() -> {
                lock.lock();
                try {
                    holding.countDown();
                    LockSupport.park(); // unmounted, holding the lock
                } finally {
                    lock.unlock();
                }
                done.countDown();
            });
            holder.start();
            assertTrue(holding.await(10, TimeUnit.SECONDS), "the holder took the lock");
            Thread initialiser = r.threadFactory().newThread(() -> {
                touch.run();
                done.countDown();
            });
            initialiser.start();
            assertTrue(inInit.await(10, TimeUnit.SECONDS), "the initialiser began");
            awaitState(initialiser, Thread.State.WAITING); // pinned in the initialiser, its carrier with it
            LockSupport.unpark(holder); // queued: the one carrier is blocked by the pinned thread
            assertTrue(done.await(30, TimeUnit.SECONDS), "both finished: an extra carrier ran the holder ("
                    + r.carriers().orElseThrow().compensations() + " compensations)");
            assertTrue(r.carriers().orElseThrow().compensations() >= 1, "the watch started an extra carrier");
            assertEquals(r.carriers().orElseThrow().compensations(), r.stats().compensations(), "the stats report it");
        }
    }

    private static void awaitState(Thread t, Thread.State s) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.getState() != s && System.nanoTime() - end < 0) Thread.sleep(1);
        assertEquals(s, t.getState(), t.toString());
    }
}
