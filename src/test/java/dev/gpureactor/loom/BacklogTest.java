package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static dev.gpureactor.loom.Poll.until;
import static org.junit.jupiter.api.Assertions.*;

/**
 * With a carrier backlog the parker gives the core to the carriers: it does not host the thread it
 * wakes, which goes to the queue (the turn's half of the rule is {@code LineWatchTest}'s).
 */
class BacklogTest {
    private static final long GUARD_S = 60;

    @Test
    void a_parker_does_not_host_while_the_carriers_are_backlogged() throws Exception {
        try (GpuReactor r = GpuReactor.builder().hosting(true).carriers(1).build(); SimDevice dev = SimDevice.open()) {
            CarrierPool pool = r.pool();
            SimStream s = dev.stream();
            CountDownLatch go = new CountDownLatch(1);
            SimStream.Signal sig = s.hold(go).signal();
            GpuFuture<Void> f = r.await(sig.descriptor(), sig.port());
            AtomicReference<String> ranOn = new AtomicReference<>();
            Thread vt = r.startVirtualThread(() -> {
                f.join();
                ranOn.set(HostingTest.carrierOf(Thread.currentThread()));
            });
            until("the joiner parks", () -> vt.getState() == Thread.State.WAITING);
            until("its parker has a thread standing by", () -> r.parkerOf(s.line()) != null && r.parkerOf(s.line()).hosting.hasStandby()); // it could host now
            CountDownLatch busy = new CountDownLatch(1), release = new CountDownLatch(1);
            pool.execute(() -> { // the only carrier is busy ...
                busy.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            busy.await();
            pool.execute(() -> { }); // ... and a task waits behind it: a backlog
            assertTrue(pool.backlogged());
            go.countDown(); // the store: the parker wakes the joiner while the carriers are behind
            until("the wait completed", f::isDone);
            Thread.sleep(20); // give a (wrong) hosting parker the time to run it
            assertNull(ranOn.get(), "the woken thread ran on the parker while the carriers were backlogged");
            release.countDown();
            assertTrue(vt.join(Duration.ofSeconds(GUARD_S)));
            assertEquals("gar-carrier-0", ranOn.get());
            assertEquals(0, r.stats().hosted());
        }
    }
}
