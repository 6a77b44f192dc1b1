package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link GpuReactor#close()} called by several threads at once: whichever returns, the reactor is
 * closed as the first close leaves it (every pending wait failed {@code ShutDown}, every executor
 * shut down), not merely marked closed while the first close is still at work. A close from the
 * closing thread itself (here, its own warning sink) returns at once instead of waiting for itself.
 * No timing thresholds: every bound is a hang guard.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConcurrentCloseTest {
    private static final int ROUNDS = 60;
    private static final int WAITS = 16;

    @Test
    void every_concurrent_close_returns_only_once_every_wait_has_ended_and_the_executors_are_shut_down() throws Exception {
        AtomicInteger early = new AtomicInteger();
        List<String> firstEarly = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            GpuReactor r = GpuReactor.builder().carriers(2).jmx(false).warnings(w -> { }).build();
            try (SimDevice dev = SimDevice.open()) {
                CountDownLatch never = new CountDownLatch(1);
                List<GpuFuture<Integer>> waits = new ArrayList<>();
                for (int i = 0; i < WAITS; i++) {
                    SimStream.Signal s = dev.stream().hold(never).signal();
                    waits.add(r.await(s.descriptor(), s.port(), () -> 1));
                }
                GpuExecutorService exec = r.newExecutor();
                CyclicBarrier start = new CyclicBarrier(2);
                Runnable closer = () -> {
                    try {
                        start.await();
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                    r.close();
                    long pending = waits.stream().filter(f -> !f.isDone()).count();
                    if (pending > 0 || !exec.isShutdown()) {
                        if (early.getAndIncrement() == 0) {
                            synchronized (firstEarly) {
                                firstEarly.add(pending + " waits pending, executor shut down " + exec.isShutdown());
                            }
                        }
                    }
                };
                Thread a = Thread.ofPlatform().start(closer);
                Thread b = Thread.ofPlatform().start(closer);
                a.join();
                b.join();
                for (GpuFuture<Integer> f : waits) assertEquals(ErrorCode.ShutDown, f.failureCode());
                never.countDown();
            }
        }
        assertEquals(0, early.get(), "closes that returned before the close was done, of " + 2 * ROUNDS + "; the first: " + firstEarly);
    }

    @Test
    void a_close_from_the_closing_threads_own_warning_sink_returns_at_once() throws Exception {
        AtomicReference<GpuReactor> self = new AtomicReference<>();
        AtomicInteger nested = new AtomicInteger();
        GpuReactor r = GpuReactor.builder().carriers(1).jmx(false).warnings(w -> {
            if (w.code() == ErrorCode.LiveAtClose) { // raised on the closing thread, inside its close
                self.get().close();
                nested.incrementAndGet();
            }
        }).build();
        self.set(r);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        r.startVirtualThread(() -> {
            running.countDown();
            try {
                release.await(); // live at close: the close warns LiveAtClose after its grace
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(running.await(60, TimeUnit.SECONDS));
        Thread closer = Thread.ofPlatform().start(r::close);
        assertTrue(closer.join(java.time.Duration.ofSeconds(60)), "the close waited for itself");
        assertEquals(1, nested.get(), "the sink's close ran and returned");
        release.countDown();
    }

    @Test
    void a_close_from_the_reactors_own_virtual_thread_racing_a_platform_close_holds_neither_until_the_grace() throws Exception {
        // The platform close's pool waits (up to its 1 s grace) for the virtual thread; a virtual thread that
        // waited for that close in turn held both until the grace, which then warned LiveAtClose naming it.
        for (int round = 0; round < 20; round++) {
            List<Warning> warned = new java.util.concurrent.CopyOnWriteArrayList<>();
            GpuReactor r = GpuReactor.builder().carriers(1).jmx(false).warnings(warned::add).build();
            CyclicBarrier start = new CyclicBarrier(2);
            Thread own = r.startVirtualThread(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                r.close();
            });
            start.await();
            r.close();
            assertTrue(own.join(java.time.Duration.ofSeconds(30)), "round " + round + ": the virtual thread's close returned");
            assertTrue(warned.stream().noneMatch(w -> w.code() == ErrorCode.LiveAtClose), "round " + round + ": " + warned);
        }
    }
}
