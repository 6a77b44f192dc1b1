package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static dev.gpureactor.loom.Poll.until;
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
            until("the parker booked its CPU time", () -> p.cpuNanos() > 0);
            assertTrue(r.stats().parkerCpuNanos() >= p.cpuNanos(), "the run stats sum every parker");
        }
    }

    @Test
    void a_parker_books_its_turns_the_empty_ones_and_its_spin_by_phase_and_spins_only_when_allowed() throws Exception {
        for (Duration spin : new Duration[] {Duration.ofMillis(2), Duration.ZERO}) {
            // Hosting off for the run without spin: then no phase but the turns and the rest may book time.
            try (GpuReactor r = GpuReactor.builder().parkSpin(spin).hosting(!spin.isZero()).build(); SimDevice dev = SimDevice.open()) {
                SimStream s = dev.stream();
                Thread t = r.startVirtualThread(() -> { // a virtual joiner: the parker completes its waits
                    for (int i = 0; i < 50; i++) {
                        SimStream.Signal sig = s.compute(Duration.ofMillis(1)).signal();
                        r.await(sig.descriptor(), sig.port()).join();
                    }
                });
                assertTrue(t.join(Duration.ofSeconds(60)));
                until("the parker booked its CPU time", () -> r.parkerOf(s.line()).cpuNanos() > 0); // at its next sleep, as the CPU is
                RunStats.ParkerPhases p = r.stats().parkerPhases();
                assertTrue(p.turns() >= 50, "a turn completes each of the 50 waits: " + p);
                assertTrue(p.emptyTurns() < p.turns(), "some turns completed a wait: " + p);
                assertTrue(p.turnNanos() > 0, "turns take time: " + p);
                if (spin.isZero()) {
                    assertEquals(0, p.spinNanos(), "parkSpin 0: the parker never spins: " + p);
                    assertEquals(0, p.hostNanos(), "hosting off: the parker ran no virtual thread: " + p);
                } else {
                    // From its first sample the point (1 ms of work) is sharp: its waits spin past their wake.
                    assertTrue(p.spinNanos() > 0, "parkSpin 2 ms: the predicted waits spun: " + p);
                }
                assertTrue(p.restNanos(r.stats().parkerCpuNanos()) >= 0);
                assertEquals(p, p.since(new RunStats.ParkerPhases(0, 0, 0, 0, 0, 0, 0)));
            }
        }
    }
}
