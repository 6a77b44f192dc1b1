package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link RunStats#ranWaiting()}: a turn that wakes two virtual threads hosts the first and queues the
 * second for the carriers; with the only carrier busy, the parker thread relieved by the hosting runs
 * it from the queue once its guest has parked, and that run is counted there, not in {@code hosted}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RanWaitingStatsTest {
    private static final Duration GUARD = Duration.ofSeconds(60);

    @Test
    void a_second_wake_that_waits_for_a_busy_carrier_runs_on_the_relieved_parker_thread_and_is_counted_once() throws Exception {
        GpuReactor r = GpuReactor.builder().hosting(true).carriers(1).hardwarePark(false).build();
        try (SimDevice dev = SimDevice.open()) {
            SimStream a = dev.stream(), b = dev.stream(), c = dev.stream();
            assertSame(a.line(), b.line(), "streams of one line");
            assertSame(a.line(), c.line(), "streams of one line");
            // A wait that stays pending: the line has waits, so a hosting first hands the loop over.
            CountDownLatch goC = new CountDownLatch(1);
            SimStream.Signal sigC = c.hold(goC).signal();
            GpuFuture<Void> waitC = r.await(sigC.descriptor(), sigC.port());
            int oneTurn = 0; // rounds whose two stores one turn saw: one hosted, one run from the queue
            for (int round = 0; round < 8; round++) {
                CountDownLatch go = new CountDownLatch(1); // both stores at once: one turn sees both, but rarely
                SimStream.Signal sigA = a.hold(go).signal(), sigB = b.hold(go).signal();
                GpuFuture<Void> fa = r.await(sigA.descriptor(), sigA.port()), fb = r.await(sigB.descriptor(), sigB.port());
                AtomicReference<String> ranA = new AtomicReference<>(), ranB = new AtomicReference<>();
                Thread va = r.startVirtualThread(() -> { fa.join(); ranA.set(HostingTest.carrierOf(Thread.currentThread())); });
                Thread vb = r.startVirtualThread(() -> { fb.join(); ranB.set(HostingTest.carrierOf(Thread.currentThread())); });
                HostingTest.parked(va);
                HostingTest.parked(vb);
                HostingTest.standingBy(r, a.line());
                // The only carrier is kept running (not blocked: no carrier stands in for it), so a wake
                // handed to the carriers waits in their queue.
                AtomicBoolean release = new AtomicBoolean();
                CountDownLatch busy = new CountDownLatch(1);
                Thread spinner = r.startVirtualThread(() -> {
                    busy.countDown();
                    while (!release.get()) Thread.onSpinWait();
                });
                assertTrue(busy.await(GUARD.toSeconds(), TimeUnit.SECONDS), "the carrier took the spinning task");
                RunStats before = r.stats();
                go.countDown();
                // Both ran on parker threads while the carrier spun: hosted, or run from the queue by the
                // relieved thread. One that found no thread standing by waits for the carrier; then the
                // round tells nothing, and the carrier is released to run it.
                boolean bothOnParkers = va.join(Duration.ofSeconds(5)) && vb.join(Duration.ofSeconds(5));
                // The relieved thread counts what it ran from the queue once it ran it: after the joiner ended.
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                RunStats after = r.stats();
                while (bothOnParkers && counted(before, after) < 2 && System.nanoTime() - end < 0) {
                    Thread.sleep(1);
                    after = r.stats();
                }
                release.set(true);
                assertTrue(spinner.join(GUARD));
                assertTrue(va.join(GUARD) && vb.join(GUARD), "round " + round + ": both joiners ended");
                if (!bothOnParkers) continue;
                assertTrue(ranA.get().startsWith("gar-parker-") && ranB.get().startsWith("gar-parker-"),
                        "round " + round + ": both ran on parker threads: " + ranA + ", " + ranB);
                assertEquals(2, counted(before, after), "round " + round + ": each wake counted once, hosted or run from the queue: " + after);
                if (after.ranWaiting() - before.ranWaiting() == 1) oneTurn++;
            }
            assertTrue(oneTurn > 0, "in 8 rounds no turn saw both stores (each round: two stores released together)");
            goC.countDown();
            waitC.join();
            // The joiner may see its word before the parker's scan settles the wait: 0 once it has.
            long end = System.nanoTime() + GUARD.toNanos();
            while (r.registrations() != 0 && System.nanoTime() - end < 0) Thread.sleep(1);
            assertEquals(0, r.registrations(), "every registration settled");
        } finally {
            r.close();
        }
    }

    /** The wakes between two snapshots that ran on a parker thread: hosted, or run from the carriers' queue. */
    private static long counted(RunStats before, RunStats after) {
        return after.hosted() - before.hosted() + after.ranWaiting() - before.ranWaiting();
    }
}
