package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The naive kind (the joiner runs the plan itself) against the same promises as the parker: a
 * cancel from another thread ends the joiner's wait, a wait with no joiner still completes its
 * stage, and a word the device never wrote is a coded warning. The device is held on a gate, so
 * without the promise the wait would last until the test's hang guard.
 */
class NaiveKindFaultsTest {
    private static final long HANG_GUARD_S = 60;
    private static final String PLAN = "flag:park_us=200,backstop_us=1000";

    @Test
    void a_cancel_from_another_thread_ends_an_inline_wait() throws Exception {
        try (GpuReactor r = GpuReactor.builder().kind(ExecutorKind.NAIVE).plan(PLAN).carriers(2).build();
             SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            CountDownLatch gate = new CountDownLatch(1);
            s.hold(gate);
            SimStream.Signal sig = s.signal();
            GpuFuture<Void> f = r.await(sig.descriptor(), sig.port());
            AtomicReference<ErrorCode> seen = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            Thread joiner = r.startVirtualThread(() -> {
                started.countDown();
                try {
                    f.join();
                } catch (ReactorException e) {
                    seen.set(e.code());
                }
            });
            assertTrue(started.await(HANG_GUARD_S, TimeUnit.SECONDS));
            assertTrue(f.cancel(false));
            joiner.join(TimeUnit.SECONDS.toMillis(HANG_GUARD_S));
            gate.countDown();
            assertFalse(joiner.isAlive(), "the joiner still runs the plan of a cancelled wait");
            assertEquals(ErrorCode.Cancelled, seen.get());
        }
    }

    @Test
    void a_stage_with_no_joiner_completes() throws Exception {
        try (GpuReactor r = GpuReactor.builder().kind(ExecutorKind.NAIVE).plan(PLAN).carriers(2).build();
             SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            SimStream.Signal sig = s.signal();
            CountDownLatch gate = new CountDownLatch(1);
            s.hold(gate);
            SimStream.Signal later = s.signal();
            GpuFuture<Integer> f = r.await(later.descriptor(), later.port(), () -> 7);
            CompletableFuture<Integer> stage = f.toCompletableFuture();
            CountDownLatch called = new CountDownLatch(1);
            f.onComplete((v, t) -> called.countDown());
            gate.countDown();
            assertEquals(7, stage.get(HANG_GUARD_S, TimeUnit.SECONDS));
            assertTrue(called.await(HANG_GUARD_S, TimeUnit.SECONDS));
            assertTrue(sig.descriptor().isComplete());
        }
    }

    @Test
    void a_failed_stream_fails_a_stage_with_no_joiner() throws Exception {
        try (GpuReactor r = GpuReactor.builder().kind(ExecutorKind.NAIVE).plan(PLAN).carriers(2).build();
             SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.fail("injected");
            SimStream.Signal sig = s.signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 7);
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> f.toCompletableFuture().get(HANG_GUARD_S, TimeUnit.SECONDS));
            assertEquals(ErrorCode.Backend, assertInstanceOf(ReactorException.class, e.getCause()).code());
        }
    }

    @Test
    void a_word_the_device_never_wrote_completes_with_a_coded_warning() throws Exception {
        List<Warning> sink = new CopyOnWriteArrayList<>();
        try (GpuReactor r = GpuReactor.builder().kind(ExecutorKind.NAIVE).plan(PLAN).carriers(2).warnings(sink::add).build();
             SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            SimStream.Signal lost = s.signalLost();
            GpuFuture<Integer> f = r.await(lost.descriptor(), lost.port(), () -> 5);
            assertEquals(5, r.newExecutor().submit(() -> f.join()).get(HANG_GUARD_S, TimeUnit.SECONDS));
            assertFalse(lost.descriptor().isComplete());
            // (the build may add its own fallback warnings, such as ParkFallback on a host without a hardware park)
            List<Warning> lostWords = sink.stream().filter(w -> w.code() == ErrorCode.WordNeverWritten).toList();
            assertEquals(1, lostWords.size(), sink.toString());
            assertTrue(lostWords.getFirst().message().contains(lost.descriptor().toString()), lostWords.getFirst().message());
        }
    }
}
