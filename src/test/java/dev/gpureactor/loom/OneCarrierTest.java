package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Virtual threads blocked in {@link GpuFuture#join()} leave their carrier free: on a pool of ONE
 * carrier, several waiters park on device work that cannot finish (the simulated stream is held by
 * a gate), and a CPU task submitted after them runs to completion while every waiter is still
 * blocked. Were a join holding the carrier, the CPU task could never run and the test would hang
 * (a hang guard, not a timing assertion, ends it).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OneCarrierTest {
    private static final long GUARD_S = 60;

    @Test
    void several_blocked_joiners_leave_the_single_carrier_to_a_cpu_task() throws Exception {
        joinersLeaveTheCarrier(false);
    }

    /**
     * The same with hosting (the default): a joiner woken when its line has nothing else to watch
     * may run on the line's parker instead; every other run is still the one carrier's.
     */
    @Test
    void with_hosting_the_woken_joiners_run_on_the_carrier_or_their_lines_parker() throws Exception {
        joinersLeaveTheCarrier(true);
    }

    private void joinersLeaveTheCarrier(boolean hosting) throws Exception {
        int waiters = 8;
        try (GpuReactor r = GpuReactor.builder().hosting(hosting).carriers(1).build(); SimDevice dev = SimDevice.open();
             GpuExecutorService exec = r.newExecutor()) {
            assertEquals(1, r.carriers().orElseThrow().size());
            SimStream s = dev.stream();
            CountDownLatch gate = new CountDownLatch(1);
            s.compute(Duration.ZERO, () -> GpuExecutorServiceTest.awaitQuietly(gate));
            List<GpuFuture<Long>> futures = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                SimStream.Signal sig = s.signal();
                long target = sig.descriptor().target();
                futures.add(r.await(sig.descriptor(), sig.port(), () -> target * 10));
            }

            List<Thread> joiners = new ArrayList<>();
            List<Long> results = java.util.Collections.synchronizedList(new ArrayList<>());
            List<String> carriersSeen = java.util.Collections.synchronizedList(new ArrayList<>());
            for (GpuFuture<Long> f : futures) {
                joiners.add(r.startVirtualThread(() -> {
                    carriersSeen.add(carrierOf(Thread.currentThread()));
                    results.add(f.join());
                    carriersSeen.add(carrierOf(Thread.currentThread()));
                }));
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
            while (!allWaiting(joiners) && System.nanoTime() < end) Thread.sleep(1);
            assertTrue(allWaiting(joiners), "every joiner parked in join()");

            // The CPU task: real work on the one carrier, submitted after every joiner blocked.
            Future<Long> cpu = exec.submit(() -> {
                carriersSeen.add(carrierOf(Thread.currentThread()));
                long acc = 0;
                for (int i = 1; i <= 1_000_000; i++) acc += i % 7;
                return acc;
            });
            assertEquals(expectedCpuResult(), cpu.get(GUARD_S, TimeUnit.SECONDS));

            // It finished while the device was still held: every joiner is still blocked, nothing completed.
            assertTrue(allWaiting(joiners), "the joiners were still blocked when the CPU task ended");
            for (GpuFuture<Long> f : futures) assertFalse(f.isDone());
            assertTrue(results.isEmpty());

            gate.countDown();
            for (Thread t : joiners) assertTrue(t.join(Duration.ofSeconds(GUARD_S)));
            List<Long> want = new ArrayList<>();
            for (GpuFuture<Long> f : futures) want.add(f.descriptor().target() * 10);
            assertEquals(want.stream().sorted().toList(), results.stream().sorted().toList());
            assertEquals("gar-carrier-0", carriersSeen.getFirst());
            if (hosting) {
                List<String> allowed = List.of("gar-carrier-0", "gar-parker-" + s.line().name());
                assertTrue(allowed.containsAll(carriersSeen), "the carrier or the line's parker ran it all: " + carriersSeen);
            } else {
                assertEquals(1, carriersSeen.stream().distinct().count(), "one carrier ran it all: " + carriersSeen);
            }
        }
    }

    private static long expectedCpuResult() {
        long acc = 0;
        for (int i = 1; i <= 1_000_000; i++) acc += i % 7;
        return acc;
    }

    private static boolean allWaiting(List<Thread> threads) {
        for (Thread t : threads) if (t.getState() != Thread.State.WAITING) return false;
        return true;
    }

    /** The carrier's name from a mounted virtual thread's {@code toString()} ({@code ...@carrier}). */
    private static String carrierOf(Thread vt) {
        String s = vt.toString();
        int at = s.lastIndexOf('@');
        return at < 0 ? "(unmounted: " + s + ")" : s.substring(at + 1);
    }
}
