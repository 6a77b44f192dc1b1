package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;

import java.time.Duration;

/**
 * A consumer's first program, as the README shows it: a reactor with the default builder (so the
 * default warnings sink), one wait on the simulated device joined on a virtual thread. Run by
 * {@link PlainRunTest} with and without the JVM flags; it prints its facts on stdout only, so stderr
 * holds exactly what the JDK and the library's log printed.
 */
public final class PlainRunMain {
    private PlainRunMain() {}

    public static void main(String[] args) throws Exception {
        try (GpuReactor r = GpuReactor.builder().build(); SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            s.compute(Duration.ofMillis(2));
            SimStream.Signal sig = s.signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 42);
            Thread vt = r.startVirtualThread(f::join);
            if (!vt.join(Duration.ofSeconds(60))) throw new IllegalStateException("the join did not end");
            System.out.println("state=" + f.state());
            System.out.println("scheduler=" + r.schedulerResolution().running());
            System.out.println("warnings=" + r.warnings().stream().map(w -> w.code().name()).toList());
        }
    }
}
