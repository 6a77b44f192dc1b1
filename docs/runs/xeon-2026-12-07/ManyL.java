import dev.gpureactor.core.*;
import dev.gpureactor.loom.*;
import java.util.*;

/**
 * ManyFutures' wake: n virtual threads over 8 lines, thread i on slot i mod 64 with target i / 64 + 1, each joining
 * its own future; every slot stored at once; the time from the first store to the last joiner running, and the
 * parker's and carriers' CPU over the wake (ThreadMXBean), medians over rounds. Each joiner writes only its own
 * time, 64 bytes apart. Args: n rounds.
 */
public class ManyL {
    record Port(MemoryDescriptor d) implements CompletionPort { public boolean query() { return d.isComplete(); } public void arm() { } public void block() { while (!d.isComplete()) Thread.onSpinWait(); } public boolean park(long b) { return d.isComplete(); } }
    static final int STRIDE = 8;
    public static void main(String[] a) throws Throwable {
        int n = Integer.parseInt(a[0]), rounds = Integer.parseInt(a[1]);
        long[] last = new long[rounds], pk = new long[rounds], cr = new long[rounds];
        int lines = a.length > 2 ? Integer.parseInt(a[2]) : 8, slots = lines * CompletionLine.WORDS;
        try (GpuReactor r = GpuReactor.builder().build()) {
            for (int round = -5; round < rounds; round++) {
                CompletionLine[] ls = new CompletionLine[lines];
                for (int i = 0; i < lines; i++) ls[i] = CompletionLine.allocate();
                long[] ran = new long[n * STRIDE]; Thread[] ts = new Thread[n];
                for (int i = 0; i < n; i++) {
                    CompletionLine line = ls[(i % slots) / CompletionLine.WORDS]; Slot slot = Slot.of(i % CompletionLine.WORDS);
                    long target = i / slots + 1; int k = i * STRIDE;
                    ts[i] = r.startVirtualThread(() -> { MemoryDescriptor d = new MemoryDescriptor(line, slot, target); r.await(d, new Port(d)).join(); ran[k] = System.nanoTime(); });
                }
                while (r.registrations() < n) Thread.sleep(2);
                for (Thread t : ts) while (t.getState() != Thread.State.WAITING) Thread.sleep(1);
                Thread.sleep(30);
                long lastTarget = (n - 1) / slots + 1;
                long[] c0 = cpu(); long t0 = System.nanoTime();
                for (CompletionLine l : ls) for (int s = 0; s < CompletionLine.WORDS; s++) l.store(Slot.of(s), lastTarget);
                for (Thread t : ts) t.join();
                long[] c1 = cpu();
                if (round >= 0) { long mx = 0; for (int i = 0; i < n; i++) mx = Math.max(mx, ran[i * STRIDE]); last[round] = mx - t0; pk[round] = c1[0] - c0[0]; cr[round] = c1[1] - c0[1]; }
                for (CompletionLine l : ls) l.close();
            }
        }
        System.out.printf("n=%d: last p50 %.2f ms, parker cpu p50 %.2f ms, carriers cpu p50 %.2f ms%n", n, med(last) / 1e6, med(pk) / 1e6, med(cr) / 1e6);
    }
    static double med(long[] v) { long[] s = v.clone(); Arrays.sort(s); return s[s.length / 2]; }
    static final java.lang.management.ThreadMXBean MX = java.lang.management.ManagementFactory.getThreadMXBean();
    static long[] cpu() {
        long p = 0, c = 0;
        for (java.lang.management.ThreadInfo ti : MX.getThreadInfo(MX.getAllThreadIds())) {
            if (ti == null) continue; long t = MX.getThreadCpuTime(ti.getThreadId()); if (t < 0) continue;
            String nm = ti.getThreadName();
            if (nm.startsWith("gar-parker")) p += t; else if (nm.startsWith("gar-carrier-") && !nm.contains("wat")) c += t;
        }
        return new long[]{p, c};
    }
}
