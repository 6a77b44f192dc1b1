import dev.gpureactor.core.*;
import dev.gpureactor.loom.*;
import dev.gpureactor.backend.sim.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** Readbacks, point keys, stages, joins, line close with listeners. One case per run: ProbeC <case> [naive] */
public class ProbeC {
    static String cut(String s) { return s == null ? null : s.length() > 260 ? s.substring(0, 260) + "…" : s; }
    static String outcome(Callable<?> c) {
        try { return "VALUE " + c.call(); }
        catch (ReactorException e) { return "CODED " + e.code() + ": " + cut(e.getMessage()); }
        catch (CompletionException e) { return "COMPLETION-EXC cause=" + e.getCause(); }
        catch (ExecutionException e) { return "EXECUTION-EXC cause=" + e.getCause(); }
        catch (Throwable t) { String m; try { m = t.getMessage(); } catch (Throwable x) { m = "<msg threw>"; } return "OTHER " + t.getClass().getName() + ": " + cut(m); }
    }
    static GpuReactor r; static SimDevice dev; static List<String> warns = Collections.synchronizedList(new ArrayList<>());
    static SimStream.Signal sig(int ms) { SimStream s = dev.stream(); s.compute(Duration.ofMillis(ms)); return s.signal(); }
    static String vtJoin(GpuFuture<?> f, Duration d) throws Exception {
        String[] res = new String[1];
        Thread t = r.startVirtualThread(() -> res[0] = outcome(() -> f.join(d)));
        t.join(10_000);
        return t.isAlive() ? "STILL WAITING after 10s" : res[0];
    }
    static String ptJoin(Callable<?> c) throws Exception {
        String[] res = new String[1];
        Thread t = Thread.ofPlatform().daemon(true).start(() -> res[0] = outcome(c));
        t.join(10_000);
        return t.isAlive() ? "STILL WAITING after 10s" : res[0];
    }
    static class Key { final int mode; final AtomicInteger calls = new AtomicInteger(); Key(int m) { mode = m; }
        @Override public int hashCode() { if (mode == 1 && calls.incrementAndGet() > 1) throw new IllegalStateException("hashCode boom"); if (mode == 3) throw new IllegalStateException("hashCode boom always"); return 42; }
        @Override public boolean equals(Object o) { if (mode == 2) throw new IllegalStateException("equals boom"); return o == this; }
    }
    public static void main(String[] a) throws Exception {
        String c = a[0];
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> System.out.println("  UNCAUGHT on " + t.getName() + ": " + e));
        var b = GpuReactor.builder().warnings(w -> warns.add(w.toString()));
        if (a.length > 1 && a[1].equals("naive")) b.kind(ExecutorKind.parse("naive"));
        r = b.build(); dev = SimDevice.open();
        System.out.println(c + (a.length > 1 ? " " + a[1] : "") + ":");
        switch (c) {
            case "pointkey-hash-later", "pointkey-equals", "pointkey-hash-always" -> {
                int m = c.equals("pointkey-hash-later") ? 1 : c.equals("pointkey-equals") ? 2 : 3;
                SimStream.Signal good = sig(300);
                GpuFuture<String> gf = r.await(good.descriptor(), good.port(), () -> "healthy");
                // two waits with equal-hash keys so equals() is exercised
                SimStream.Signal s1 = sig(50), s2 = sig(60);
                GpuFuture<String> f1 = null, f2 = null;
                try { f1 = r.await(s1.descriptor(), s1.port(), () -> "v1", new Key(m)); } catch (Throwable t) { System.out.println("  await 1 threw " + t); }
                try { f2 = r.await(s2.descriptor(), s2.port(), () -> "v2", new Key(m)); } catch (Throwable t) { System.out.println("  await 2 threw " + t); }
                if (f1 != null) System.out.println("  f1: " + vtJoin(f1, Duration.ofSeconds(5)));
                if (f2 != null) System.out.println("  f2: " + vtJoin(f2, Duration.ofSeconds(5)));
                System.out.println("  healthy: " + vtJoin(gf, Duration.ofSeconds(5)));
                System.out.println("  parkersDied=" + r.stats().parkersDied());
            }
            case "readbacks" -> {
                SimStream.Signal s = sig(10);
                System.out.println("  null readback value: " + vtJoin(r.await(s.descriptor(), s.port(), () -> null), Duration.ofSeconds(5)));
                s = sig(10);
                System.out.println("  readback Error: " + vtJoin(r.await(s.descriptor(), s.port(), () -> { throw new StackOverflowError("so"); }), Duration.ofSeconds(5)));
                s = sig(10);
                System.out.println("  readback sneaky IOException (join): " + vtJoin(r.await(s.descriptor(), s.port(), () -> { throw ProbeB.sneaky(new java.io.IOException("io")); }), Duration.ofSeconds(5)));
                s = sig(10);
                var fio = r.await(s.descriptor(), s.port(), () -> { throw ProbeB.sneaky(new java.io.IOException("io")); });
                System.out.println("  readback sneaky IOException (get): " + ptJoin(() -> fio.get(5, TimeUnit.SECONDS)));
                s = sig(10);
                var fev = r.await(s.descriptor(), s.port(), () -> { throw new ProbeB.EvilMessage(); });
                System.out.println("  readback evil message (vt join): " + vtJoin(fev, Duration.ofSeconds(5)));
                System.out.println("  readback evil message (pt join): " + ptJoin(() -> fev.join()));
                System.out.println("  readback evil message (get): " + ptJoin(() -> fev.get()));
                System.out.println("  readback evil message (stage join): " + ptJoin(() -> fev.toCompletableFuture().join()));
                s = sig(10);
                final GpuFuture<?>[] self = new GpuFuture<?>[1];
                var fself = r.await(s.descriptor(), s.port(), () -> { try { return self[0].join(Duration.ofSeconds(2)); } catch (ReactorException e) { return "self-join: " + e.code(); } });
                self[0] = fself;
                System.out.println("  readback joins own future (timed 2s): " + vtJoin(fself, Duration.ofSeconds(8)));
                s = sig(10);
                final GpuFuture<?>[] self2 = new GpuFuture<?>[1];
                var fself2 = r.await(s.descriptor(), s.port(), () -> { return String.valueOf(self2[0].join()); });
                self2[0] = fself2;
                System.out.println("  readback joins own future (untimed): " + vtJoin(fself2, Duration.ofSeconds(4)));
                System.out.println("  readback joins own future (untimed), a pt joiner: " + ptJoin(() -> fself2.join()));
            }
            case "joins" -> {
                SimStream.Signal s = sig(200);
                GpuFuture<String> f = r.await(s.descriptor(), s.port(), () -> "v");
                System.out.println("  join(null): " + outcome(() -> f.join(null)));
                System.out.println("  join(MIN secs): " + outcome(() -> f.join(Duration.ofSeconds(Long.MIN_VALUE))));
                System.out.println("  join(-1ns): " + outcome(() -> f.join(Duration.ofNanos(-1))));
                System.out.println("  get(-1, ns): " + outcome(() -> f.get(-1, TimeUnit.NANOSECONDS)));
                System.out.println("  get(1, null): " + outcome(() -> f.get(1, null)));
                System.out.println("  get(MIN, DAYS): " + outcome(() -> f.get(Long.MIN_VALUE, TimeUnit.DAYS)));
                System.out.println("  vt join(MAX secs): " + vtJoin(f, Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)));
                SimStream.Signal s2 = sig(200);
                GpuFuture<String> f2 = r.await(s2.descriptor(), s2.port(), () -> "v2");
                System.out.println("  pt join(MAX secs): " + ptJoin(() -> f2.join(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999))));
                SimStream.Signal s3 = sig(200);
                GpuFuture<String> f3 = r.await(s3.descriptor(), s3.port(), () -> "v3");
                System.out.println("  pt get(MAX, DAYS): " + ptJoin(() -> f3.get(Long.MAX_VALUE, TimeUnit.DAYS)));
                SimStream.Signal s4 = sig(200);
                GpuFuture<String> f4 = r.await(s4.descriptor(), s4.port(), () -> "v4");
                System.out.println("  vt join(Durations.MAX): " + vtJoin(f4, Durations.MAX));
                SimStream.Signal s5 = sig(200);
                GpuFuture<String> f5 = r.await(s5.descriptor(), s5.port(), () -> "v5");
                System.out.println("  pre-interrupted pt join: " + ptJoin(() -> { Thread.currentThread().interrupt(); try { return f5.join(); } finally { System.out.println("    flag after: " + Thread.currentThread().isInterrupted()); } }));
                System.out.println("  cancel(true) x2: " + f5.cancel(true) + " " + f5.cancel(true) + " then join: " + outcome(() -> f5.join()));
                System.out.println("  resultNow on cancelled: " + outcome(() -> f5.resultNow()));
                System.out.println("  exceptionNow on cancelled: " + outcome(() -> f5.exceptionNow()));
                SimStream.Signal s6 = sig(500);
                GpuFuture<String> f6 = r.await(s6.descriptor(), s6.port(), () -> "v6");
                System.out.println("  resultNow pending: " + outcome(() -> f6.resultNow()));
                System.out.println("  exceptionNow pending: " + outcome(() -> f6.exceptionNow()));
            }
            case "stages" -> {
                SimStream.Signal s = sig(50);
                GpuFuture<String> f = r.await(s.descriptor(), s.port(), () -> "v");
                System.out.println("  onComplete(null): " + outcome(() -> f.onComplete(null)));
                System.out.println("  onComplete(a, null): " + outcome(() -> f.onComplete((v, t) -> {}, null)));
                CountDownLatch ran = new CountDownLatch(3);
                f.onComplete((v, t) -> { ran.countDown(); throw new IllegalStateException("action boom"); });
                f.onComplete((v, t) -> ran.countDown(), cmd -> { throw new IllegalStateException("executor boom"); });
                f.onComplete((v, t) -> ran.countDown(), cmd -> { /* drops it */ });
                f.onComplete((v, t) -> ran.countDown(), cmd -> cmd.run());
                System.out.println("  join: " + vtJoin(f, Duration.ofSeconds(5)));
                System.out.println("  actions ran (of 3 that can): " + ran.await(3, TimeUnit.SECONDS) + " left=" + ran.getCount());
                // other waits fine?
                SimStream.Signal s2 = sig(50);
                GpuFuture<String> f2 = r.await(s2.descriptor(), s2.port(), () -> "v2");
                f2.onComplete((v, t) -> {}, cmd -> { throw new OutOfMemoryError("fake oom from executor"); });
                f2.onComplete((v, t) -> {}, cmd -> { throw ProbeB.sneaky(new java.io.IOException("executor sneaky")); });
                SimStream.Signal s3 = sig(150);
                GpuFuture<String> f3 = r.await(s3.descriptor(), s3.port(), () -> "v3");
                System.out.println("  f2 join: " + vtJoin(f2, Duration.ofSeconds(5)));
                System.out.println("  f3 (same parker) join: " + vtJoin(f3, Duration.ofSeconds(5)));
                System.out.println("  parkersDied=" + r.stats().parkersDied());
                var cf = f3.toCompletableFuture();
                System.out.println("  cf.thenApply(null): " + outcome(() -> cf.thenApply(null)));
            }
            case "line-close-listener-throws" -> {
                CompletionLine line = CompletionLine.allocate();
                line.onClose(() -> { throw new IllegalStateException("user listener boom"); });
                SimStream st = dev.stream(line, Slot.of(0));
                st.compute(Duration.ofSeconds(30));
                SimStream.Signal s = st.signal();
                GpuFuture<String> f = r.await(s.descriptor(), s.port(), () -> "v");
                GpuFuture<String> f2 = r.await(new MemoryDescriptor(line, Slot.of(3), 5), s.port(), () -> "v");
                Thread.sleep(100);
                System.out.println("  line.close(): " + outcome(() -> { line.close(); return "closed"; }));
                System.out.println("  isClosed=" + line.isClosed());
                System.out.println("  f: " + vtJoin(f, Duration.ofSeconds(5)));
                System.out.println("  f2 (pt untimed): " + ptJoin(() -> f2.join()));
                System.out.println("  second close: " + outcome(() -> { line.close(); return "closed"; }));
                System.out.println("  registrations=" + r.registrations());
            }
            case "line-close-release-throws" -> {
                var arena = java.lang.foreign.Arena.ofShared();
                CompletionLine line = CompletionLine.wrap(arena.allocate(64, 64), "wrapped", () -> { throw new IllegalStateException("release boom"); });
                GpuFuture<Void> f = r.await(new MemoryDescriptor(line, Slot.of(0), 1), new ProbeB.Port("none", line, Slot.of(0), 1));
                Thread.sleep(100);
                System.out.println("  line.close(): " + outcome(() -> { line.close(); return "closed"; }));
                System.out.println("  isClosed=" + line.isClosed());
                System.out.println("  f: " + vtJoin(f, Duration.ofSeconds(5)));
                System.out.println("  second close: " + outcome(() -> { line.close(); return "closed"; }));
            }
            case "closed" -> {
                CompletionLine line = CompletionLine.allocate(); line.close();
                System.out.println("  await closed line: " + vtJoin(r.await(new MemoryDescriptor(line, Slot.of(0), 1), new ProbeB.Port("none", line, Slot.of(0), 1)), Duration.ofSeconds(5)));
                SimStream.Signal s = sig(10);
                SimStream.Signal held = sig(10_000);
                GpuFuture<String> pend = r.await(held.descriptor(), held.port(), () -> "x");
                r.close();
                System.out.println("  pending after close: " + ptJoin(() -> pend.join()));
                System.out.println("  await on closed reactor: " + ptJoin(() -> r.await(s.descriptor(), s.port(), () -> "v").join()));
                System.out.println("  newExecutor on closed: " + outcome(() -> r.newExecutor()));
                System.out.println("  startVirtualThread on closed: " + outcome(() -> r.startVirtualThread(() -> {})));
                System.out.println("  threadFactory().newThread on closed: " + outcome(() -> r.threadFactory().newThread(() -> {})));
            }
            case "sim-misuse" -> {
                SimStream st = dev.stream();
                st.compute(Duration.ofMillis(10), () -> { throw new IllegalStateException("kernel boom"); });
                SimStream.Signal s = st.signal();
                System.out.println("  kernel throws: " + vtJoin(r.await(s.descriptor(), s.port(), () -> "v"), Duration.ofSeconds(5)));
                SimStream st2 = dev.stream();
                st2.compute(Duration.ofSeconds(20));
                SimStream.Signal s2 = st2.signal();
                GpuFuture<String> f2 = r.await(s2.descriptor(), s2.port(), () -> "v");
                Thread.sleep(50);
                dev.close();
                System.out.println("  device closed under a wait: " + vtJoin(f2, Duration.ofSeconds(5)));
                // a stream on a line the user closes under it
                SimDevice d2 = SimDevice.open();
                CompletionLine l = CompletionLine.allocate();
                SimStream st3 = d2.stream(l, Slot.of(2));
                st3.compute(Duration.ofMillis(100));
                SimStream.Signal s3 = st3.signal();
                GpuFuture<String> f3 = r.await(s3.descriptor(), s3.port(), () -> "v");
                l.close();
                System.out.println("  user closed the stream's line: " + vtJoin(f3, Duration.ofSeconds(5)));
                System.out.println("  signal() on stream after its line closed: " + outcome(() -> st3.signal()));
                Thread.sleep(300);
                System.out.println("  signal() on stream after its worker ended: " + outcome(() -> { var x = st3.signal(); return x + " -> " + vtJoin(r.await(x.descriptor(), x.port()), Duration.ofSeconds(3)); }));
                d2.close();
            }
            default -> System.out.println("unknown case");
        }
        for (String w : warns) if (!w.contains("ParkFallback")) System.out.println("  warning: " + cut(w));
        if (!r.isClosed()) { long t0 = System.nanoTime(); r.close(); System.out.println("  close took " + (System.nanoTime() - t0) / 1_000_000 + " ms"); }
        System.exit(0);
    }
}
