package dev.gpureactor.host;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The tokio host's role in Java: CompletionStage pipelines and platform-thread joins. */
class CompletionStageHostTest {
    @Test
    void a_three_stage_pipeline_runs_on_the_given_executor_never_on_the_parker() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(2).build(); SimDevice dev = SimDevice.open()) {
            SimStream s1 = dev.stream(), s2 = dev.stream();
            int[] a = new int[1], b = new int[1];
            s1.compute(Duration.ofMillis(2), () -> a[0] = 6);
            s2.compute(Duration.ofMillis(3), () -> b[0] = 7);
            SimStream.Signal g1 = s1.signal(), g2 = s2.signal();
            GpuFuture<Integer> f1 = r.await(g1.descriptor(), g1.port(), () -> a[0]);
            GpuFuture<Integer> f2 = r.await(g2.descriptor(), g2.port(), () -> b[0]);
            List<String> threads = new CopyOnWriteArrayList<>();
            CompletableFuture<String> pipeline = f1.toCompletableFuture()
                    .thenCombineAsync(f2.toCompletableFuture(), (x, y) -> { threads.add(Thread.currentThread().toString()); return x * y; },
                            r.callbackExecutor())
                    .thenApplyAsync(p -> { threads.add(Thread.currentThread().toString()); return p + 0.5; }, r.callbackExecutor())
                    .thenComposeAsync(v -> CompletableFuture.supplyAsync(() -> "answer=" + (int) Math.floor(v), r.callbackExecutor()));
            assertEquals("answer=42", pipeline.get(60, TimeUnit.SECONDS));
            for (String t : threads) assertFalse(t.contains("gar-parker"), t);
        }
    }

    @Test
    void join_on_a_platform_thread_runs_the_plan_inline_and_completes() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(1).build(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            for (int i = 0; i < 5; i++) {
                s.compute(Duration.ofMillis(1));
                SimStream.Signal sig = s.signal();
                GpuFuture<String> f = r.await(sig.descriptor(), sig.port(), () -> "done");
                assertFalse(Thread.currentThread().isVirtual());
                assertEquals("done", f.join());
            }
            for (int i = 0; i < 200 && r.registrations() != 0; i++) Thread.sleep(5);
            assertEquals(0, r.registrations());
        }
    }
}
