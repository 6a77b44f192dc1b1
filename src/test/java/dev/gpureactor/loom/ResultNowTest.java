package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link java.util.concurrent.Future}'s contract for {@code resultNow}/{@code exceptionNow}: once
 * {@code isDone()} is true they answer with the outcome. A wait whose device finished is done while
 * its readback still runs on another thread; then they wait for that readback instead of throwing
 * {@link IllegalStateException} for a future that will complete.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ResultNowTest {
    private static final long GUARD_S = 60;

    @Test
    void result_now_while_another_thread_runs_the_readback_returns_its_value() throws Exception {
        assertEquals(42, whileReadbackRuns(() -> 42, GpuFuture::resultNow));
    }

    @Test
    void exception_now_while_another_thread_runs_a_failing_readback_returns_the_readbacks_own_exception() throws Exception {
        Object failure = whileReadbackRuns(() -> { throw new IllegalStateException("bad payload"); }, GpuFuture::exceptionNow);
        IllegalStateException e = assertInstanceOf(IllegalStateException.class, failure, "as FutureTask reports its task's exception");
        assertEquals("bad payload", e.getMessage());
    }

    @Test
    void result_now_of_a_pending_wait_throws() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(1).build(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            CountDownLatch gate = new CountDownLatch(1);
            SimStream.Signal sig = s.hold(gate).signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 1);
            assertFalse(f.isDone());
            assertThrows(IllegalStateException.class, f::resultNow);
            assertThrows(IllegalStateException.class, f::exceptionNow);
            gate.countDown();
            assertEquals(1, f.join());
        }
    }

    @Test
    void the_state_asked_from_inside_its_own_readback_is_running_not_a_deadlock() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(1).build(); SimDevice dev = SimDevice.open()) {
            SimStream.Signal sig = dev.stream().signal();
            java.util.concurrent.atomic.AtomicReference<GpuFuture<Object>> self = new java.util.concurrent.atomic.AtomicReference<>();
            GpuFuture<Object> f = r.await(sig.descriptor(), sig.port(), () -> self.get().state());
            self.set(f);
            assertEquals(java.util.concurrent.Future.State.RUNNING, f.join());
            assertEquals(java.util.concurrent.Future.State.SUCCESS, f.state());
        }
    }

    /** Thread A runs a readback that blocks on a gate; meanwhile B, seeing isDone(), asks {@code ask}. */
    private static <T> Object whileReadbackRuns(Supplier<T> body, java.util.function.Function<GpuFuture<T>, Object> ask) throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(1).build(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            CountDownLatch inReadback = new CountDownLatch(1), release = new CountDownLatch(1);
            SimStream.Signal sig = s.signal();
            GpuFuture<T> f = r.await(sig.descriptor(), sig.port(), () -> {
                inReadback.countDown();
                GpuExecutorServiceTest.awaitQuietly(release);
                return body.get();
            });
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
            while (!f.isDone() && System.nanoTime() < end) Thread.sleep(1);
            assertTrue(f.isDone(), "the device finished");
            Thread a = Thread.ofPlatform().start(() -> {
                try {
                    f.join();
                } catch (ReactorException expected) {
                    // a failing readback
                }
            });
            assertTrue(inReadback.await(GUARD_S, TimeUnit.SECONDS));
            CompletableFuture<Object> answer = CompletableFuture.supplyAsync(() -> ask.apply(f));
            Thread.sleep(20); // B has asked while A's readback runs
            release.countDown();
            Object got = answer.get(GUARD_S, TimeUnit.SECONDS);
            a.join();
            return got;
        }
    }
}
