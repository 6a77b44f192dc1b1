package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.*;

/** The parkers' CPU time is booked per parker (all its lines) and shows in {@link RunStats#parkerCpuNanos}. */
class ParkerCpuTest {
    @Test
    void a_parker_that_served_waits_books_its_cpu_to_itself_and_the_run_stats() throws Exception {
        try (GpuReactor r = GpuReactor.builder().build(); SimDevice dev = SimDevice.open()) {
            assertEquals(0, r.stats().parkerCpuNanos());
            SimStream s = dev.stream();
            for (int i = 0; i < 50; i++) {
                SimStream.Signal sig = s.compute(Duration.ofMillis(1)).signal();
                r.await(sig.descriptor(), sig.port()).join();
            }
            LineParker p = r.parkerOf(s.line());
            // Booked at the parker's next sleep; with nothing left to watch it goes idle, which is one.
            until(() -> p.cpuNanos() > 0);
            assertTrue(r.stats().parkerCpuNanos() >= p.cpuNanos(), "the run stats sum every parker");
        }
    }

    private static void until(BooleanSupplier c) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!c.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "the parker never booked its CPU time");
            Thread.sleep(5);
        }
    }
}
