import dev.gpureactor.core.*;
import dev.gpureactor.loom.*;
import dev.gpureactor.host.*;
import dev.gpureactor.backend.sim.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;

/** Watcher (std host) with ports that throw oddly; builder deadlineSleeper misuse. ProbeE watcher-evil | watcher-sneaky | sleeper-null | sleeper-throws | sleeper-sleep-throws */
public class ProbeE {
    public static void main(String[] a) throws Exception {
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> System.out.println("  UNCAUGHT on " + t.getName() + ": " + e));
        String c = a[0];
        if (c.startsWith("watcher")) {
            List<String> warns = Collections.synchronizedList(new ArrayList<>());
            Watcher w = new Watcher(Duration.ofMillis(1), Duration.ofMillis(1), x -> warns.add(x.toString()));
            SimDevice dev = SimDevice.open();
            CompletionLine line = CompletionLine.allocate();
            CompletionPort bad = new CompletionPort() {
                public boolean query() { if (c.equals("watcher-evil")) throw new ProbeB.EvilMessage(); throw ProbeB.sneaky(new java.io.IOException("sneaky")); }
                public void block() {} public void arm() {} public boolean park(long b) { return false; }
            };
            SimStream s = dev.stream(); s.compute(Duration.ofMillis(300)); SimStream.Signal sg = s.signal();
            CompletableFuture<Void> good = w.watch(sg.descriptor(), sg.port());
            CompletableFuture<Void> badF = w.watch(new MemoryDescriptor(line, Slot.of(0), 1), bad);
            System.out.println(c + ":");
            System.out.println("  bad : " + outcome(badF));
            System.out.println("  good: " + outcome(good));
            SimStream s2 = dev.stream(); s2.compute(Duration.ofMillis(10)); SimStream.Signal sg2 = s2.signal();
            System.out.println("  later watch: " + outcome(w.watch(sg2.descriptor(), sg2.port())));
            System.out.println("  registrations=" + w.registrations() + " warnings raised=" + warns.size() + (warns.isEmpty() ? "" : " first=" + warns.get(0)));
            w.close();
            System.out.println("  after close, good: " + outcome(good) + " bad: " + outcome(badF));
        } else {
            var b = GpuReactor.builder();
            switch (c) {
                case "sleeper-null" -> b.deadlineSleeper(() -> null);
                case "sleeper-throws" -> b.deadlineSleeper(() -> { throw new IllegalStateException("factory boom"); });
                case "sleeper-sleep-throws" -> b.deadlineSleeper(() -> at -> { throw new IllegalStateException("sleep boom"); });
            }
            GpuReactor r;
            try { r = b.build(); } catch (Throwable t) { System.out.println(c + ": build threw " + t); return; }
            System.out.println(c + ": built, kind=" + r.kind());
            SimDevice dev = SimDevice.open();
            // teach the estimator so the parker takes a deadline sleep
            for (int i = 0; i < 12; i++) {
                SimStream s = dev.stream(); s.compute(Duration.ofMillis(20)); SimStream.Signal sg = s.signal();
                GpuFuture<Void> f = r.await(sg.descriptor(), sg.port(), null == null ? () -> null : null, "point");
                String[] res = new String[1];
                Thread vt = r.startVirtualThread(() -> { try { f.join(Duration.ofSeconds(5)); res[0] = "value"; } catch (ReactorException e) { res[0] = "CODED " + e.code() + ": " + e.getMessage(); } catch (Throwable t) { res[0] = "OTHER " + t; } });
                vt.join(8000);
                if (i < 2 || i > 9 || !"value".equals(res[0])) System.out.println("  wait " + i + ": " + (vt.isAlive() ? "STILL WAITING" : res[0]));
            }
            System.out.println("  parkersDied=" + r.stats().parkersDied() + " warnings=" + r.warnings().stream().filter(x -> !x.toString().contains("ParkFallback")).toList());
            r.close();
        }
        System.exit(0);
    }
    static String outcome(CompletableFuture<?> f) {
        try { return "VALUE " + f.get(5, TimeUnit.SECONDS); }
        catch (TimeoutException e) { return "STILL PENDING after 5 s"; }
        catch (ExecutionException e) { Throwable t = e.getCause(); return t instanceof ReactorException re ? "CODED " + re.code() + ": " + re.getMessage() : "OTHER " + t.getClass().getName(); }
        catch (Throwable t) { return "OTHER " + t; }
    }
}
