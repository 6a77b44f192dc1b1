package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The carrier pool's visibility: queue depth, backlog and live virtual threads,
 * in {@link CarrierPool} and in {@link RunStats}, on one carrier held busy by a blocking callback
 * so that the counts are exact.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PoolStatsTest {
    private static final long GUARD_S = 60;

    @Test
    void a_busy_carrier_shows_its_backlog_and_the_live_threads() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(1).build()) {
            CarrierPool pool = r.pool();
            assertEquals(1, r.stats().carriers());
            assertFalse(pool.backlogged());
            CountDownLatch carrierHeld = new CountDownLatch(1), releaseCarrier = new CountDownLatch(1);
            pool.resumes().execute(() -> { // a plain task on the carrier (callbacks run on virtual threads of their own)
                carrierHeld.countDown();
                try {
                    releaseCarrier.await(); // blocks the carrier itself (a plain task is not a virtual thread)
                } catch (InterruptedException ignored) {
                    // ends
                }
            });
            assertTrue(carrierHeld.await(GUARD_S, TimeUnit.SECONDS));
            assertEquals(0, pool.queueDepth());
            assertFalse(pool.backlogged(), "one task on one carrier is no backlog");
            CountDownLatch releaseThreads = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                threads.add(r.startVirtualThread(() -> {
                    try {
                        releaseThreads.await();
                    } catch (InterruptedException ignored) {
                        // ends
                    }
                }));
            }
            assertEquals(5, pool.queueDepth(), "five starts wait behind the busy carrier");
            assertTrue(pool.backlogged());
            assertEquals(5, r.stats().queueDepth());
            assertEquals(0, r.stats().liveThreads(), "none has run yet");
            releaseCarrier.countDown();
            while (pool.liveThreads() < 5) Thread.onSpinWait(); // each counts itself live when it first runs
            while (pool.queueDepth() > 0) Thread.onSpinWait();
            assertEquals(5, r.stats().liveThreads(), "parked threads are live");
            assertFalse(pool.backlogged());
            releaseThreads.countDown();
            for (Thread t : threads) assertTrue(t.join(Duration.ofSeconds(GUARD_S)));
            while (pool.liveThreads() > 0) Thread.onSpinWait(); // the count drops in the thread's last act
            RunStats s = r.stats();
            assertEquals(0, s.liveThreads());
            assertTrue(s.busyNanos() > 0 && s.polls() >= 6, s.toString()); // the plain task and five first runs at least
        }
    }
}
