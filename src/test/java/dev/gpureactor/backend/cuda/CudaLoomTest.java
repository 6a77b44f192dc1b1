package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.HostFns;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The loom layer over the CUDA binding: 10,000 virtual threads on the reactor's carriers join
 * 10,000 {@link GpuFuture}s, all on ONE CUDA stream and one word of a {@link MappedLine}, the
 * stream storing 1, 2, …, 10,000 behind a gate (a host function that holds the stream). Every
 * future is made while the stream stands still, so every one registers with the line's parker;
 * every one completes exactly once with its own result (its readback runs once), and the
 * registrations return to 0. Against the stand-in driver always; against libcuda.so.1 where one
 * is found (a JUnit assumption with the reason otherwise).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SuppressWarnings("restricted")
class CudaLoomTest {
    private static final long GUARD_S = 60;

    @ParameterizedTest
    @ValueSource(strings = {"standin", "real"})
    void ten_thousand_virtual_threads_join_futures_on_one_cuda_stream(String kind) throws Exception {
        int n = 10_000;
        Slot slot = Slot.of(3);
        try (CudaRig rig = CudaRig.open(kind)) {
            var line = MappedLine.create(rig.cuda);
            try (GpuReactor r = GpuReactor.builder().carriers(2).build()) {
                CuStream stream = rig.stream();
                HostFns.Gate gate = rig.gate(stream);
                assertTrue(gate.awaitEntered(GUARD_S), "the stream is held at the gate");

                AtomicIntegerArray readbacks = new AtomicIntegerArray(n + 1);
                List<GpuFuture<Long>> futures = new ArrayList<>(n);
                for (int k = 1; k <= n; k++) {
                    CudaPort port = line.port(stream, slot, k);
                    port.arm(); // cuStreamWriteValue64_v2(k) behind the gate and the stores before it
                    MemoryDescriptor d = port.descriptor().orElseThrow();
                    assertEquals(new MemoryDescriptor(line.line(), slot, k), d);
                    long target = k;
                    futures.add(r.await(d, port, () -> {
                        readbacks.incrementAndGet((int) target);
                        return target;
                    }));
                }
                assertEquals(n, r.registrations(), "the stream stands still: every wait registered");
                assertEquals(0, line.line().word(slot));

                AtomicLongArray results = new AtomicLongArray(n + 1);
                AtomicInteger joins = new AtomicInteger();
                ConcurrentHashMap<String, Boolean> wrongCarrier = new ConcurrentHashMap<>();
                List<Thread> threads = new ArrayList<>(n);
                for (GpuFuture<Long> f : futures) {
                    int k = (int) f.descriptor().target();
                    threads.add(r.startVirtualThread(() -> {
                        String me = Thread.currentThread().toString();
                        if (!me.contains("@gar-carrier-")) wrongCarrier.put(me, true);
                        long v = f.join();
                        results.set(k, v);
                        joins.incrementAndGet();
                    }));
                }
                gate.open();
                for (Thread t : threads) assertTrue(t.join(Duration.ofSeconds(GUARD_S)), "a joiner hung: " + t);

                assertEquals(n, joins.get());
                assertTrue(wrongCarrier.isEmpty(), "ran off our carriers: " + wrongCarrier.keySet());
                for (int k = 1; k <= n; k++) {
                    assertEquals(k, results.get(k), "the result of wait " + k);
                    assertEquals(1, readbacks.get(k), "the readback of wait " + k + " ran exactly once");
                }
                for (GpuFuture<Long> f : futures) {
                    assertEquals(java.util.concurrent.Future.State.SUCCESS, f.state());
                    assertNull(f.failureCode());
                }
                assertEquals(n, line.line().word(slot), "the last store landed");
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
                while (r.registrations() != 0 && System.nanoTime() < end) Thread.sleep(2);
                assertEquals(0, r.registrations(), "every registration was settled");
                assertTrue(r.stats().woke() >= 1);

                long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
                while (!line.retire(stream) && System.nanoTime() < settle) Thread.sleep(1);
            }
            line.close();
            assertTrue(line.isFreed(), "every store settled, so the page was freed, not leaked");
            if (rig.standinOnly()) {
                assertEquals(n, rig.hooks.counter("write_value"), "one cuStreamWriteValue64_v2 per wait");
                assertEquals(0, rig.hooks.counter("free_under_pending"));
            }
        }
    }
}
