package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A callback and a virtual thread of the same one-carrier reactor contend for one monitor (the soak's
 * lost round: a stage completion formatting its first coded message met a joiner loading the same
 * locale bundle). Under JEP 491 a blocked virtual thread unmounts, and when the owner exits it may be
 * chosen to enter next; were the callback running on the carrier thread itself, that carrier would
 * sit blocked on the monitor while the chosen virtual thread waits for it: the whole pool stops, or,
 * since the pool's CarrierWatch compensates a carrier blocked inside a task, goes on only on an extra
 * carrier. On a virtual thread of its own the callback unmounts as the other does, and the one
 * carrier serves both: no compensation.
 */
class CallbackMonitorTest {
    @Test
    void a_callback_and_a_virtual_thread_blocked_on_one_monitor_both_finish_on_one_carrier() throws Exception {
        Object monitor = new Object();
        try (GpuReactor r = GpuReactor.builder().carriers(1).hosting(false).jmx(false).build()) {
            CountDownLatch vtDone = new CountDownLatch(1), callbackDone = new CountDownLatch(1), held = new CountDownLatch(1),
                    release = new CountDownLatch(1);
            Thread owner = Thread.ofPlatform().daemon(true).start(() -> {
                synchronized (monitor) {
                    held.countDown();
                    awaitQuietly(release);
                }
            });
            assertTrue(held.await(30, TimeUnit.SECONDS));
            Thread vt = r.threadFactory().newThread(() -> {
                synchronized (monitor) {
                    vtDone.countDown();
                }
            });
            vt.start();
            waitUntil(() -> vt.getState() == Thread.State.BLOCKED); // first in the monitor's queue, unmounted
            java.util.concurrent.atomic.AtomicBoolean callbackVirtual = new java.util.concurrent.atomic.AtomicBoolean();
            r.callbackExecutor().execute(() -> {
                callbackVirtual.set(Thread.currentThread().isVirtual());
                synchronized (monitor) {
                    callbackDone.countDown();
                }
            });
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // the callback reaches the monitor after the virtual thread
            release.countDown();
            // A hang detector, not a time limit on the work: both finish in microseconds once the owner leaves.
            assertTrue(vtDone.await(30, TimeUnit.SECONDS), "the virtual thread never entered the monitor: its one carrier is blocked");
            assertTrue(callbackDone.await(30, TimeUnit.SECONDS), "the callback never entered the monitor");
            owner.join();
            vt.join();
            assertTrue(callbackVirtual.get(), "the callback ran on a platform thread (the carrier itself)");
            assertEquals(0, r.stats().compensations(), "the carrier was blocked by the callback and an extra carrier stood in");
        }
    }

    private static void awaitQuietly(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier c) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!c.getAsBoolean()) {
            assertTrue(System.nanoTime() - end < 0, "timed out");
            LockSupport.parkNanos(1_000_000);
        }
    }
}
