package dev.gpureactor.host;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The std host (a platform thread that joins runs the plan inline) against the rule that the
 * query is the error authority: a store that arrives only after a query reported the stream's
 * failure must not complete the wait.
 *
 * <p>Under gpu-reactor the wait is registered with its line's parker before anyone joins. When a
 * platform thread joins and takes the plan over, two threads watch one future unless the joiner
 * withdraws the registration first: the joiner's query reports the failure, the late store lands,
 * and the parker, spinning on the line, completes the future before the joiner can fail it. The
 * soak saw that in 8 of 300 such waits. Each round here makes the race as tight as it gets: the
 * stream fails at once and stores the moment a query has reported it, while the parker (a cold
 * point: it watches from the wait's start) spins on the line.
 */
class StdHostAuthorityTest {
    private static final int ROUNDS = 300;

    @Test
    void a_store_after_the_reported_failure_never_completes_a_platform_joiners_wait() throws Exception {
        List<String> wrong = new ArrayList<>();
        try (GpuReactor r = GpuReactor.builder().carriers(1).build(); SimDevice dev = SimDevice.open()) {
            for (int i = 0; i < ROUNDS; i++) {
                try (SimStream s = dev.stream()) {
                    SimStream.Signal sig = s.signalIntoFailure("injected: store into failure");
                    GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 42);
                    try {
                        Integer v = f.join(); // this (platform) thread runs the plan inline
                        wrong.add("round " + i + ": completed with " + v);
                    } catch (ReactorException e) {
                        if (e.code() != ErrorCode.Backend) wrong.add("round " + i + ": " + e.code() + " " + e.getMessage());
                    }
                    if (f.state() != Future.State.FAILED) wrong.add("round " + i + ": ended " + f.state());
                    // The late store still lands (the query reported the failure): the word is there.
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    while (!sig.descriptor().isComplete() && System.nanoTime() < deadline) Thread.onSpinWait();
                    assertTrue(sig.descriptor().isComplete(), "round " + i + ": the late store never came");
                    if (f.state() != Future.State.FAILED) wrong.add("round " + i + ": the late store changed it to " + f.state());
                }
            }
            assertEquals(List.of(), wrong, "waits whose outcome was not the authority's failure");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (r.registrations() != 0 && System.nanoTime() < deadline) Thread.sleep(1);
            assertEquals(0, r.registrations(), "registrations left behind");
        }
    }
}
