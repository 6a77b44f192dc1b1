import dev.gpureactor.backend.sim.*;
import dev.gpureactor.loom.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.LockSupport;

/** gar scale's fan-out shape, recording the first and the last waiter's start from the stamp, and the parker's and carriers' CPU. */
public class FanT {
    static final class Stamp { volatile long at; void stamp() { at = System.nanoTime(); } }
    public static void main(String[] a) throws Exception {
        int waiters = Integer.parseInt(a[0]), rounds = Integer.parseInt(a[1]); boolean floor = a.length > 2 && a[2].contains("floor"); boolean jdk = a.length > 2 && a[2].equals("jdkfloor");
        long[] first = new long[rounds], last = new long[rounds], pk = new long[rounds], cr = new long[rounds];
        try (SimDevice device = SimDevice.open(); GpuReactor r = GpuReactor.builder().build()) {
            SimStream stream = device.stream();
            for (int round = -20; round < rounds; round++) {
                long[] ran = new long[waiters]; Thread[] ts = new Thread[waiters];
                Stamp st = new Stamp(); long[] c0;
                if (floor) {
                    CountDownLatch started = new CountDownLatch(waiters); var rel = new java.util.concurrent.atomic.AtomicBoolean();
                    for (int i = 0; i < waiters; i++) { int k = i; Runnable body = () -> { started.countDown(); while (!rel.get()) LockSupport.park(); ran[k] = System.nanoTime(); String ct = Thread.currentThread().toString(); WHO[k] = ct.endsWith("gar-carrier-0") || ct.endsWith("worker-1") ? 0 : ct.endsWith("gar-carrier-1") || ct.endsWith("worker-2") ? 1 : 2; }; ts[i] = jdk ? Thread.ofVirtual().start(body) : r.startVirtualThread(body); }
                    started.await(); for (Thread t : ts) while (t.getState() != Thread.State.WAITING) Thread.sleep(1);
                    c0 = cpu(); st.stamp(); rel.set(true); for (Thread t : ts) LockSupport.unpark(t);
                } else {
                    CountDownLatch gate = new CountDownLatch(1);
                    stream.hold(gate).compute(Duration.ZERO, st::stamp);
                    SimStream.Signal sig = stream.signal();
                    for (int i = 0; i < waiters; i++) { int k = i; ts[i] = r.startVirtualThread(() -> { r.await(sig.descriptor(), sig.port()).join(); ran[k] = System.nanoTime(); String ct = Thread.currentThread().toString(); int cid = ct.endsWith("gar-carrier-0") ? 0 : ct.endsWith("gar-carrier-1") ? 1 : 2; WHO[k] = cid; if (cid == 0) C0.incrementAndGet(); else if (cid == 1) C1.incrementAndGet(); else CO.incrementAndGet(); }); }
                    while (r.registrations() < waiters) Thread.sleep(1);
                    for (Thread t : ts) while (t.getState() != Thread.State.WAITING) Thread.sleep(1);
                    c0 = cpu(); gate.countDown();
                }
                for (Thread t : ts) t.join();
                long[] c1 = cpu();
                if (round >= 0) { int n0 = 0, n1 = 0; for (int i = 0; i < waiters; i++) { if (WHO[i] == 0) n0++; else if (WHO[i] == 1) n1++; } if (Math.min(n0, n1) >= waiters / 10) BOTH.incrementAndGet(); }
                if (round >= rounds - 1) {
                    StringBuilder sb = new StringBuilder("  last round, per carrier: ");
                    for (int c = 0; c < 3; c++) { List<Long> xs = new ArrayList<>(); for (int i = 0; i < waiters; i++) if (WHO[i] == c) xs.add(ran[i] - st.at); Collections.sort(xs);
                        if (xs.isEmpty()) continue; long gap = 0, gsum = 0; for (int i = 1; i < xs.size(); i++) { long g = xs.get(i) - xs.get(i-1); gap = Math.max(gap, g); if (g > 5000) gsum += g; }
                        sb.append(String.format("c%d n=%d first %d last %d us maxgap %d us gaps>5us sum %d us; ", c, xs.size(), xs.get(0)/1000, xs.get(xs.size()-1)/1000, gap/1000, gsum/1000)); }
                    System.out.println(sb);
                }
                if (round >= 0) {
                    long mn = Long.MAX_VALUE, mx = 0; for (long x : ran) { mn = Math.min(mn, x); mx = Math.max(mx, x); }
                    first[round] = mn - st.at; last[round] = mx - st.at; pk[round] = c1[0] - c0[0]; cr[round] = c1[1] - c0[1];
                }
            }
        }
        System.out.printf("%s n=%d: first p50 %.0f us, last p50 %.0f us, parker cpu p50 %.0f us, carriers cpu p50 %.0f us%n", floor ? "floor" : "reactor", waiters,
            med(first) / 1e3, med(last) / 1e3, med(pk) / 1e3, med(cr) / 1e3); System.out.println("  rounds where both carriers ran >= 10%: " + BOTH + " of " + rounds); System.out.println("  ran on carrier-0 " + C0 + ", carrier-1 " + C1 + ", other " + CO);
    }
    static final java.util.concurrent.atomic.AtomicLong C0 = new java.util.concurrent.atomic.AtomicLong(), C1 = new java.util.concurrent.atomic.AtomicLong(), CO = new java.util.concurrent.atomic.AtomicLong();
    static final java.util.concurrent.atomic.AtomicLong BOTH = new java.util.concurrent.atomic.AtomicLong();
    static int[] WHO = new int[100000];
    static double med(long[] v) { long[] s = v.clone(); Arrays.sort(s); return s[s.length / 2]; }
    static final java.lang.management.ThreadMXBean MX = java.lang.management.ManagementFactory.getThreadMXBean();
    static long[] cpu() {
        long p = 0, c = 0;
        for (java.lang.management.ThreadInfo ti : MX.getThreadInfo(MX.getAllThreadIds())) {
            if (ti == null) continue; long t = MX.getThreadCpuTime(ti.getThreadId()); if (t < 0) continue;
            String n = ti.getThreadName();
            if (n.startsWith("gar-parker")) p += t; else if ((n.startsWith("gar-carrier-") && !n.contains("wat")) || n.startsWith("ForkJoinPool-1-worker")) c += t;
        }
        return new long[]{p, c};
    }
}
