package dev.gpureactor.loom;

import dev.gpureactor.carrier.VirtualThreads;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Strictness;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Warning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by {@link SchedulerFallbackTest} in a JVM started without
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED}. Prints one {@code key=value} line per fact
 * the test checks; exits 0 when it got that far (the test judges the facts, not this class).
 */
public final class FallbackMain {
    private FallbackMain() {}

    public static void main(String[] args) throws Exception {
        System.out.println("hook=" + VirtualThreads.capability());

        List<Warning> warnings = new ArrayList<>();
        try (GpuReactor r = GpuReactor.builder().carriers(1).warnings(warnings::add).build();
             SimDevice dev = SimDevice.open()) {
            // ParkFallback depends on the CPU (no hardware word wait here), not on the scheduler: counted apart.
            for (Warning w : warnings) {
                if (w.code() != ErrorCode.ParkFallback) System.out.println("warning=" + w.message());
            }
            System.out.println("warnings.kept=" + r.warnings().stream().filter(w -> w.code() != ErrorCode.ParkFallback).count());
            System.out.println("scheduler.requested=" + r.schedulerResolution().requested());
            System.out.println("scheduler.running=" + r.schedulerResolution().running());
            System.out.println("carrierPool=" + r.carriers().isPresent());

            SimStream s = dev.stream();
            int[] payload = new int[1];
            s.compute(Duration.ofMillis(5), () -> payload[0] = 42);
            SimStream.Signal sig = s.signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> payload[0]);
            AtomicReference<String> seen = new AtomicReference<>();
            Thread vt = r.startVirtualThread(() -> {
                Integer v = f.join();
                seen.set(v + " virtual=" + Thread.currentThread().isVirtual() + " thread=" + Thread.currentThread());
            });
            vt.join(Duration.ofSeconds(60));
            System.out.println("joined=" + seen.get());
            System.out.println("state=" + f.state());
        }

        try (GpuReactor strict = GpuReactor.builder().strictness(Strictness.STRICT).build()) {
            System.out.println("strict=built " + strict.schedulerResolution().running());
        } catch (ReactorException e) {
            System.out.println("strict.code=" + e.code());
            System.out.println("strict.message=" + e.getMessage());
        }
        System.out.println("done");
    }
}
