package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.ExecutorKind;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Where the JSR-166 TCK's FutureTaskTest, run against a {@link GpuFuture}, found it answering
 * otherwise than {@link FutureTask}: each case runs the same calls on a FutureTask and on a
 * GpuFuture and asserts the JDK's answer for both, under each executor kind the reactor runs
 * without a host (gpu-reactor, naive). A pending GpuFuture is device work held on a gate of the
 * simulated device.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a measurement
class FutureTaskParityTest {

    /** A pending FutureTask (never run) and a pending GpuFuture (its device work held), closed after. */
    private static final class Pending implements AutoCloseable {
        final CountDownLatch gate = new CountDownLatch(1);
        final GpuReactor reactor;
        final SimDevice device = SimDevice.open();
        final FutureTask<Integer> task = new FutureTask<>(() -> 42);
        final GpuFuture<Integer> gpu;

        Pending(ExecutorKind kind) {
            reactor = GpuReactor.builder().kind(kind).carriers(2).build();
            SimStream.Signal sig = device.stream().hold(gate).signal();
            gpu = reactor.await(sig.descriptor(), sig.port(), () -> 42);
        }

        @Override
        public void close() {
            gate.countDown();
            device.close();
            reactor.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"GPU_REACTOR", "NAIVE"})
    void aSecondCancelAnswersFalseAsFutureTasksDoes(ExecutorKind kind) {
        try (Pending p = new Pending(kind)) {
            for (Future<Integer> f : List.<Future<Integer>>of(p.task, p.gpu)) {
                assertTrue(f.cancel(false), f + ": the first cancel cancels");
                assertFalse(f.cancel(false), f + ": a cancelled future cannot be cancelled again");
                assertFalse(f.cancel(true), f + ": nor with mayInterruptIfRunning");
                assertTrue(f.isCancelled());
                assertTrue(f.isDone());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"GPU_REACTOR", "NAIVE"})
    void aCompletedFutureCannotBeCancelled(ExecutorKind kind) throws Exception {
        try (Pending p = new Pending(kind)) {
            p.task.run();
            p.gate.countDown();
            assertEquals(42, p.gpu.get());
            for (Future<Integer> f : List.<Future<Integer>>of(p.task, p.gpu)) {
                assertFalse(f.cancel(false), f + ": done");
                assertFalse(f.cancel(true), f + ": done");
                assertFalse(f.isCancelled());
            }
        }
    }

    /** FutureTask treats every limit at or below zero as no wait; Long.MIN_VALUE must not wrap to "for ever". */
    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"GPU_REACTOR", "NAIVE"})
    void theMostNegativeLimitTimesOutAtOnce(ExecutorKind kind) {
        try (Pending p = new Pending(kind)) {
            for (Future<Integer> f : List.<Future<Integer>>of(p.task, p.gpu)) {
                for (long limit : new long[] {0L, -1L, Long.MIN_VALUE}) {
                    assertThrows(TimeoutException.class, () -> f.get(limit, TimeUnit.NANOSECONDS), f + " limit " + limit);
                }
                assertFalse(f.isDone(), f + ": a caller's timeout does not change the future");
            }
            ReactorException e = assertThrows(ReactorException.class, () -> p.gpu.join(Duration.ofSeconds(Long.MIN_VALUE)));
            assertEquals(ErrorCode.Timeout, e.code());
        }
    }
}
