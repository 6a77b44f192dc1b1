import dev.gpureactor.core.*;
import dev.gpureactor.loom.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.LockSupport;
import one.profiler.AsyncProfiler;

public class ManyP {
    static AsyncProfiler AP; static boolean started; static int round;
    static void apOn() throws Exception { if (AP == null || round++ < 5) return; AP.execute((started ? "resume" : "start") + ",event=cpu,interval=" + System.getProperty("iv","200us") + ",threads"); started = true; }
    static void apOff() throws Exception { if (AP != null && started) AP.execute("stop"); }
    record WordPort(MemoryDescriptor d) implements CompletionPort {
        public boolean query() { return d.isComplete(); }
        public void block() throws InterruptedException { while (!d.isComplete()) LockSupport.parkNanos(20_000); }
        public void arm() { }
        public boolean park(long b) { long end = System.nanoTime() + b; while (!d.isComplete() && System.nanoTime() - end < 0) Thread.onSpinWait(); return d.isComplete(); }
    }
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]); int rounds = Integer.parseInt(a[1]); String mode = a[2];
        String lib = System.getProperty("ap"); if (lib != null) AP = AsyncProfiler.getInstance(lib);
        GpuReactor.Builder b = GpuReactor.builder(); if (a.length > 3) b.plan(a[3]);
        try (GpuReactor r = b.build()) {
            double[][] q = new double[rounds][];
            for (int k = 0; k < rounds; k++) q[k] = mode.equals("floor") ? floor(r, n, false) : mode.equals("jdk") ? floor(r, n, true) : futures(r, n, 8);
            // median over rounds of each quantile (ms from t0): first, 10%, 50%, 90%, last
            String[] names = {"first", "p10", "p50", "p90", "last"};
            StringBuilder sb = new StringBuilder(mode + " n=" + n + ":");
            for (int j = 0; j < 5; j++) { double[] c = new double[rounds]; for (int k = 0; k < rounds; k++) c[k] = q[k][j]; Arrays.sort(c); sb.append(String.format(" %s %.2f", names[j], c[rounds / 2])); }
            System.out.println(sb + " ms (median of " + rounds + ")");
            String[] g = {"parker", "carriers", "main"}; StringBuilder cs = new StringBuilder("  cpu per wake (median, us):");
            for (int j = 0; j < 3; j++) { long[] c = new long[CPU.size()]; for (int k = 0; k < c.length; k++) c[k] = CPU.get(k)[j]; Arrays.sort(c); cs.append(String.format(" %s %.0f", g[j], c[c.length/2]/1e3)); }
            System.out.println(cs);
            if (AP != null) System.out.println(AP.execute("dump,collapsed,file=" + System.getProperty("out")));
        }
    }
    static double[] shape(long[] ran, long t0) {
        long[] s = ran.clone(); Arrays.sort(s); int n = s.length;
        return new double[]{(s[0]-t0)/1e6, (s[n/10]-t0)/1e6, (s[n/2]-t0)/1e6, (s[n*9/10]-t0)/1e6, (s[n-1]-t0)/1e6};
    }
    static double[] floor(GpuReactor r, int n, boolean jdk) throws Exception {
        Thread[] ts = new Thread[n]; long[] ran = new long[n]; AtomicBoolean rel = new AtomicBoolean(); CountDownLatch started = new CountDownLatch(n), done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) { final int k = i; Runnable body = () -> { started.countDown(); while (!rel.get()) LockSupport.park(); ran[k] = System.nanoTime(); done.countDown(); }; ts[i] = jdk ? Thread.ofVirtual().start(body) : r.startVirtualThread(body); }
        started.await(); waitAll(ts);
        apOn(); long[] c0 = cpu(); long t0 = System.nanoTime(); rel.set(true);
        for (Thread t : ts) LockSupport.unpark(t);
        done.await(); apOff(); cpuEnd(c0);
        for (Thread t : ts) t.join();
        return shape(ran, t0);
    }
    static double[] futures(GpuReactor r, int n, int lineCount) throws Exception {
        CompletionLine[] lines = new CompletionLine[lineCount];
        for (int i = 0; i < lineCount; i++) lines[i] = CompletionLine.allocate();
        int slots = lineCount * CompletionLine.WORDS;
        Thread[] ts = new Thread[n]; long[] ran = new long[n]; CountDownLatch started = new CountDownLatch(n), done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            final int k = i;
            CompletionLine line = lines[(i % slots) / CompletionLine.WORDS]; Slot slot = Slot.of(i % CompletionLine.WORDS); long target = i / slots + 1;
            ts[i] = r.startVirtualThread(() -> { MemoryDescriptor d = new MemoryDescriptor(line, slot, target);
                GpuFuture<Void> f = r.await(d, new WordPort(d)); started.countDown(); f.join(); ran[k] = System.nanoTime(); done.countDown(); });
        }
        started.await(); waitAll(ts);
        while (r.registrations() < n) Thread.sleep(5);
        Thread.sleep(50);
        long last = (n - 1) / slots + 1;
        apOn(); long[] c0 = cpu(); long t0 = System.nanoTime();
        for (CompletionLine l : lines) for (int s = 0; s < CompletionLine.WORDS; s++) l.store(Slot.of(s), last);
        done.await(); apOff(); cpuEnd(c0);
        for (Thread t : ts) t.join();
        for (CompletionLine l : lines) l.close();
        return shape(ran, t0);
    }
    static final java.lang.management.ThreadMXBean MX = java.lang.management.ManagementFactory.getThreadMXBean();
    static final List<long[]> CPU = new ArrayList<>();
    // [parker, carriers, main/unparker]
    static long[] cpu() {
        long p = 0, c = 0, m = 0;
        for (java.lang.management.ThreadInfo ti : MX.getThreadInfo(MX.getAllThreadIds())) {
            if (ti == null) continue; long t = MX.getThreadCpuTime(ti.getThreadId()); if (t < 0) continue;
            String n = ti.getThreadName();
            if (n.startsWith("gar-parker")) p += t; else if ((n.startsWith("gar-carrier-") && !n.contains("wat")) || n.startsWith("ForkJoinPool-")) c += t; else if (n.equals("main")) m += t;
        }
        return new long[]{p, c, m};
    }
    static void cpuEnd(long[] c0) { long[] c1 = cpu(); CPU.add(new long[]{c1[0]-c0[0], c1[1]-c0[1], c1[2]-c0[2]}); }
    static void waitAll(Thread[] ts) throws Exception { for (Thread t : ts) while (t.getState() != Thread.State.WAITING) Thread.sleep(1); }
}
