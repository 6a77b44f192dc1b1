import dev.gpureactor.backend.sim.*;
import dev.gpureactor.core.*;
import dev.gpureactor.loom.*;
import java.nio.file.*;
import java.time.Duration;
import java.util.*;

/** After a busy phase (8 lines x 8 slots of 1 ms waits for busySec), one idle line for 10 s: CPU by OS thread. */
public class Idle {
    static Map<String, Long> ticks() throws Exception {
        Map<String, Long> m = new TreeMap<>();
        try (var ds = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : ds) {
                try {
                    String comm = Files.readString(t.resolve("comm")).trim().replaceAll("[0-9]+$", "#");
                    String[] ss = Files.readString(t.resolve("schedstat")).trim().split(" ");
                    long j = Long.parseLong(ss[0]);
                    m.merge(comm + " [switches]", Long.parseLong(ss[2]) * 1_000_000L, Long::sum);
                    m.merge(comm, j, Long::sum);
                } catch (Exception e) { }
            }
        }
        return m;
    }
    public static void main(String[] a) throws Exception {
        int busySec = Integer.parseInt(a[0]);
        // busy phase
        CompletionLine[] busy = new CompletionLine[8];
        for (int i = 0; i < 8; i++) busy[i] = CompletionLine.allocate();
        try (SimDevice device = SimDevice.open(); GpuReactor r = GpuReactor.open()) {
            List<Thread> ts = new ArrayList<>();
            long end = System.nanoTime() + busySec * 1_000_000_000L;
            for (CompletionLine line : busy) for (int s = 0; s < 8; s++) {
                SimStream st = device.stream(line, Slot.of(s));
                ts.add(r.startVirtualThread(() -> {
                    while (System.nanoTime() < end) {
                        var sig = st.compute(Duration.ofMillis(1)).signal();
                        r.await(sig.descriptor(), sig.port()).join();
                    }
                }));
            }
            for (Thread t : ts) t.join();
        }
        for (CompletionLine l : busy) l.close();
        // idle phase, as gar scale's
        CompletionLine line = CompletionLine.allocate();
        try (SimDevice device = SimDevice.open(); GpuReactor r = GpuReactor.open()) {
            SimStream s = device.stream(line, Slot.of(0));
            var sig = s.compute(Duration.ZERO).signal();
            r.startVirtualThread(() -> r.await(sig.descriptor(), sig.port()).join()).join();
            Thread bare = Thread.ofPlatform().daemon().name("bare-100ms").start(() -> { while (true) java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L); });
            Thread.sleep(1000);
            for (int w = 0; w < 3; w++) {
                Map<String, Long> b = ticks(); long t0 = System.nanoTime();
                Thread.sleep(10_000);
                Map<String, Long> e = ticks(); double sec = (System.nanoTime() - t0) / 1e9;
                long tot = 0; StringBuilder sb = new StringBuilder();
                for (var en : e.entrySet()) {
                    long d = en.getValue() - b.getOrDefault(en.getKey(), 0L);
                    tot += d;
                    if (d > 20_000) sb.append(String.format("  %s %.1f ms/s%n", en.getKey(), d / 1e6 / sec));
                }
                System.out.printf("window %d: total %.1f ms/s (schedstat)%n%s", w, tot / 1e6 / sec, sb);
            }
        }
        line.close();
    }
}
