import dev.gpureactor.core.*;
import dev.gpureactor.loom.*;
import dev.gpureactor.backend.sim.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.function.*;

/**
 * Ports and readbacks that misbehave. For each case: a bad wait on line A (a port that throws oddly)
 * and a healthy wait on line B (a SimStream signal after 300 ms), both joined from a virtual thread of
 * the reactor (timed 5 s) and from a platform thread (untimed, watched for 8 s).
 * Usage: ProbeB <case> [naive]
 */
public class ProbeB {
    @SuppressWarnings("unchecked")
    static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E { throw (E) t; }

    static class EvilMessage extends RuntimeException {
        @Override public String getMessage() { throw new IllegalStateException("getMessage boom"); }
        @Override public String toString() { throw new IllegalStateException("toString boom"); }
    }

    static class Port implements CompletionPort {
        final String mode; final CompletionLine line; final Slot slot; final long target;
        final AtomicInteger queries = new AtomicInteger();
        Port(String mode, CompletionLine line, Slot slot, long target) { this.mode = mode; this.line = line; this.slot = slot; this.target = target; }
        public boolean query() {
            queries.incrementAndGet();
            switch (mode) {
                case "query-sneaky-ioexception": throw sneaky(new java.io.IOException("sneaky io"));
                case "query-sneaky-interrupted": throw sneaky(new InterruptedException("sneaky interrupted"));
                case "query-sneaky-exception": throw sneaky(new Exception("sneaky checked"));
                case "query-sneaky-throwable": throw sneaky(new Throwable("raw throwable"));
                case "query-evil-message": throw new EvilMessage();
                case "query-cause-cycle": { RuntimeException a = new RuntimeException("a"); RuntimeException b = new RuntimeException("b", a); a.initCause(b); throw a; }
                case "query-null-message": throw new RuntimeException();
                case "query-anon-class": throw new RuntimeException("anon") {};
                case "query-done-stores-throws": return true;
                case "query-done-stores-sneaky": return true;
                case "query-reactorexception-shutdown": throw new ReactorException(ErrorCode.ShutDown, "fake");
                default: return false;
            }
        }
        public boolean storesIntoLine() {
            if (mode.equals("query-done-stores-throws")) throw new IllegalStateException("storesIntoLine boom");
            if (mode.equals("query-done-stores-sneaky")) throw sneaky(new java.io.IOException("storesIntoLine sneaky"));
            return true;
        }
        public void block() throws InterruptedException { if (mode.startsWith("block-")) throw new IllegalStateException("block boom"); while (!query()) Thread.sleep(1); }
        public void arm() { if (mode.equals("arm-throws")) throw new IllegalStateException("arm boom"); if (mode.equals("arm-sneaky")) throw sneaky(new java.io.IOException("arm sneaky")); }
        public boolean park(long b) throws InterruptedException {
            if (mode.equals("park-throws")) throw new IllegalStateException("park boom");
            if (mode.equals("park-sneaky")) throw sneaky(new java.io.IOException("park sneaky"));
            if (mode.equals("park-true-lies")) return true;
            java.util.concurrent.locks.LockSupport.parkNanos(Math.min(b, 1_000_000));
            return new MemoryDescriptor(line, slot, target).isComplete();
        }
    }

    static String outcome(Callable<?> c) {
        try { return "VALUE " + c.call(); }
        catch (ReactorException e) { return "CODED " + e.code() + ": " + cut(e.getMessage()); }
        catch (CompletionException e) { return "COMPLETION-EXC cause=" + e.getCause(); }
        catch (ExecutionException e) { return "EXECUTION-EXC cause=" + e.getCause(); }
        catch (Throwable t) { return "OTHER " + t.getClass().getName() + ": " + cut(String.valueOf(safeMsg(t))); }
    }
    static String safeMsg(Throwable t) { try { return t.getMessage(); } catch (Throwable x) { return "<getMessage threw " + x + ">"; } }
    static String cut(String s) { return s == null ? null : s.length() > 260 ? s.substring(0, 260) + "…" : s; }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        boolean naive = args.length > 1 && args[1].equals("naive");
        String planText = args.length > 2 ? args[2] : null;
        List<String> warns = Collections.synchronizedList(new ArrayList<>());
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> System.out.println("  UNCAUGHT on " + t.getName() + ": " + e));
        var b = GpuReactor.builder().warnings(w -> warns.add(w.toString()));
        if (naive) b.kind(ExecutorKind.parse("naive"));
        if (planText != null) b.plan(planText);
        GpuReactor r = b.build();
        SimDevice dev = SimDevice.open();
        CompletionLine lineA = CompletionLine.allocate();
        Port port = new Port(mode, lineA, Slot.of(0), 1);
        SimStream healthy = dev.stream();
        healthy.compute(Duration.ofMillis(300));
        SimStream.Signal hs = healthy.signal();
        GpuFuture<String> good = r.await(hs.descriptor(), hs.port(), () -> "healthy-value");
        GpuFuture<String> bad;
        try {
            bad = r.await(new MemoryDescriptor(lineA, Slot.of(0), 1), port, () -> "bad-value");
        } catch (Throwable t) {
            System.out.println(mode + (naive ? " naive" : "") + ": await threw " + t);
            bad = null;
        }
        final GpuFuture<String> badF = bad;
        String[] vtRes = new String[2];
        Thread vt = r.startVirtualThread(() -> {
            vtRes[0] = badF == null ? "-" : outcome(() -> badF.join(Duration.ofSeconds(5)));
            vtRes[1] = outcome(() -> good.join(Duration.ofSeconds(5)));
        });
        String[] ptRes = new String[2];
        Thread pt = Thread.ofPlatform().daemon(true).start(() -> {
            ptRes[0] = badF == null ? "-" : outcome(() -> badF.join());
            ptRes[1] = outcome(() -> good.join());
        });
        vt.join(8000); pt.join(8000);
        System.out.println(mode + (naive ? " naive" : "") + (planText != null ? " plan=" + planText : "") + ":");
        System.out.println("  vt bad : " + (vt.isAlive() ? "STILL WAITING after 8s" : vtRes[0]));
        System.out.println("  vt good: " + (vt.isAlive() ? "STILL WAITING" : vtRes[1]));
        System.out.println("  pt bad : " + (pt.isAlive() ? "STILL WAITING after 8s (HANG)" : ptRes[0]));
        System.out.println("  pt good: " + (pt.isAlive() ? "STILL WAITING" : ptRes[1]));
        if (badF != null) System.out.println("  bad state=" + badF.state() + " failureCode=" + badF.failureCode() + " queries=" + port.queries.get());
        System.out.println("  stats parkersDied=" + r.stats().parkersDied() + " registrations=" + r.registrations());
        // After: is the reactor still serving? a fresh wait on line B
        SimStream s2 = dev.stream(); s2.compute(Duration.ofMillis(20)); SimStream.Signal h2 = s2.signal();
        GpuFuture<String> after = r.await(h2.descriptor(), h2.port(), () -> "after-value");
        String[] aft = new String[1];
        Thread vt2 = r.startVirtualThread(() -> aft[0] = outcome(() -> after.join(Duration.ofSeconds(5))));
        vt2.join(7000);
        System.out.println("  later wait on the reactor: " + (vt2.isAlive() ? "STILL WAITING" : aft[0]));
        for (String w : warns) if (!w.contains("ParkFallback")) System.out.println("  warning: " + cut(w));
        long t0 = System.nanoTime();
        r.close();
        System.out.println("  close took " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        dev.close();
        System.exit(0);
    }
}
