package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.carrier.VirtualThreads;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Strictness;
import dev.gpureactor.core.Warning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by {@link NoContinuationsTest} in a JVM started with {@code -XX:-VMContinuations}, where the JDK
 * gives virtual threads no scheduler. Prints one {@code key=value} line per fact the test checks.
 */
public final class NoContinuationsMain {
    private NoContinuationsMain() {}

    public static void main(String[] args) throws Exception {
        System.out.println("hook=" + VirtualThreads.capability());
        for (int round = 0; round < 3; round++) { // three opens: a leak would be one thread each
            List<Warning> warnings = new ArrayList<>();
            try (GpuReactor r = GpuReactor.builder().carriers(1).warnings(warnings::add).build();
                 SimDevice dev = SimDevice.open()) {
                for (Warning w : warnings) {
                    if (w.code() != ErrorCode.ParkFallback) System.out.println("warning=" + w.message());
                }
                System.out.println("scheduler.running=" + r.schedulerResolution().running());
                SimStream s = dev.stream();
                int[] payload = new int[1];
                s.compute(Duration.ofMillis(2), () -> payload[0] = 42);
                SimStream.Signal sig = s.signal();
                GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> payload[0]);
                AtomicReference<Integer> seen = new AtomicReference<>();
                Thread vt = r.startVirtualThread(() -> seen.set(f.join()));
                vt.join(Duration.ofSeconds(60));
                System.out.println("joined=" + seen.get());
            }
            try (GpuReactor strict = GpuReactor.builder().strictness(Strictness.STRICT).build()) {
                System.out.println("strict=built " + strict.schedulerResolution().running());
            } catch (ReactorException e) {
                System.out.println("strict.code=" + e.code());
                System.out.println("strict.message=" + e.getMessage());
            }
        }
        // What the library started must end with its reactors (a parker leaves on its own, soon after close).
        long deadline = System.nanoTime() + 10_000_000_000L;
        List<String> left;
        do {
            left = Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                    .map(Thread::getName).filter(n -> n.startsWith("gar-")).sorted().toList();
            if (!left.isEmpty()) Thread.sleep(50);
        } while (!left.isEmpty() && System.nanoTime() < deadline);
        System.out.println("left=" + String.join(",", left));
        System.out.println("done");
    }
}
