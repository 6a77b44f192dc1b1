package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A foreign interrupt of a parker thread (nothing in the library sends one) is cleared and
 * ignored: it neither makes the parker spin (every park and sleep would return at once) nor ends
 * the line's waits.
 */
class ParkerInterruptTest {
    @ParameterizedTest(name = "hosting {0}")
    @ValueSource(booleans = {false, true})
    void an_interrupted_parker_clears_the_flag_sleeps_again_and_still_serves_its_line(boolean hosting) throws Exception {
        try (GpuReactor r = GpuReactor.builder().hosting(hosting).carriers(1).build(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            CountDownLatch started = new CountDownLatch(1);
            SimStream.Signal first = s.hold(started).signal(); // pending at await: it registers, and the line's parker starts
            GpuFuture<Void> f = r.await(first.descriptor(), first.port());
            started.countDown();
            f.join();
            List<Thread> parkers = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("gar-parker-" + s.line().name())).toList();
            assertFalse(parkers.isEmpty());
            Thread.sleep(50); // let them settle into their idle sleeps
            long before = r.stats().slept() + r.stats().parked();
            parkers.forEach(Thread::interrupt);
            Thread.sleep(200);
            long passes = r.stats().slept() + r.stats().parked() - before;
            for (Thread t : parkers) assertFalse(t.isInterrupted(), t + " kept the interrupt");
            // Not a timing bound: an idle parker that keeps the flag passes its loop millions of
            // times in 200 ms; one that clears it sleeps once more.
            assertTrue(passes < 1_000, "the interrupted parker spun: " + passes + " sleeps and parks in 200 ms");
            CountDownLatch go = new CountDownLatch(1);
            SimStream.Signal held = s.hold(go).signal();
            GpuFuture<Void> pending = r.await(held.descriptor(), held.port());
            go.countDown();
            Thread vt = r.startVirtualThread(pending::join); // joined on the pool: the parker, not an inline joiner, ends it
            assertTrue(vt.join(Duration.ofSeconds(60)));
            assertTrue(pending.isDone());
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (r.registrations() != 0 && System.nanoTime() < end) Thread.sleep(5);
            assertEquals(0, r.registrations());
        }
    }
}
