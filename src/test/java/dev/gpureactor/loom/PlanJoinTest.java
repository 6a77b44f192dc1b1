package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ExecutorKind;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.gpureactor.loom.Poll.until;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The {@code poll} and {@code block} plans, which a joining thread runs itself under every kind
 * (no parker watches them): a virtual thread polling leaves its carrier to others between queries.
 * The device is held on a gate wherever the outcome must not depend on timing; every wait is
 * hang-guarded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlanJoinTest {
    private static final long GUARD_S = 30;

    @ParameterizedTest
    @ValueSource(strings = {"poll", "flag:park_us=100,backstop_us=1000"})
    void a_virtual_joiner_polling_on_the_only_carrier_lets_another_virtual_thread_run(String plan) throws Exception {
        // The other virtual thread is the one that lets the device finish: if the poller kept its
        // carrier, the device would never finish and the join would not return within the guard.
        ExecutorKind kind = plan.equals("poll") ? ExecutorKind.GPU_REACTOR : ExecutorKind.NAIVE;
        CountDownLatch gate = new CountDownLatch(1);
        try (GpuReactor r = GpuReactor.builder().kind(kind).carriers(1).plan(plan).jmx(false).build();
             SimDevice dev = SimDevice.open(); GpuExecutorService exec = r.newExecutor()) {
            try {
                SimStream.Signal sig = dev.stream().hold(gate).signal();
                GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 7);
                Future<Integer> joined = exec.submit(() -> f.join());
                until("the virtual joiner runs the plan", () -> r.planRuns().size() == 1);
                exec.submit(gate::countDown);
                assertEquals(7, joined.get(GUARD_S, TimeUnit.SECONDS), "the other virtual thread ran while the joiner polled");
            } finally {
                gate.countDown(); // on failure, before the executor's close waits for it: lets a poller that kept its carrier end
            }
        }
    }
}
