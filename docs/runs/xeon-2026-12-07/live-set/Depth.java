import dev.gpureactor.loom.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.LockSupport;

public class Depth {
    static volatile boolean rel;
    static long sink;
    static long deep(int d, long a, long b, long c) {
        if (d == 0) { while (!rel) LockSupport.park(); return a + b + c; }
        long x = a * 31 + d, y = b ^ c, z = c + d;
        long r = deep(d - 1, x, y, z);
        return r + x + y + z;
    }
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]); int rounds = Integer.parseInt(a[1]); int[] depths = Arrays.stream(a[2].split(",")).mapToInt(Integer::parseInt).toArray();
        try (GpuReactor r = GpuReactor.builder().build()) {
            for (int d : depths) run(r, n, 5, d);
            for (int d : depths) {
                double[] last = new double[rounds];
                for (int k = 0; k < rounds; k++) last[k] = run(r, n, 1, d);
                Arrays.sort(last);
                System.out.printf("depth %d: last %.2f ms (median of %d; p25 %.2f p75 %.2f)%n", d, last[rounds/2], rounds, last[rounds/4], last[rounds*3/4]);
            }
        }
    }
    static double run(GpuReactor r, int n, int reps, int d) throws Exception {
        double out = 0;
        for (int q = 0; q < reps; q++) {
            rel = false;
            Thread[] ts = new Thread[n]; long[] ran = new long[n]; CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) { final int k = i; ts[i] = r.startVirtualThread(() -> { sink += deep(d, k, 2, 3); ran[k] = System.nanoTime(); done.countDown(); }); }
            for (Thread t : ts) while (t.getState() != Thread.State.WAITING) Thread.sleep(1);
            long t0 = System.nanoTime(); rel = true;
            for (Thread t : ts) LockSupport.unpark(t);
            done.await();
            for (Thread t : ts) t.join();
            long m = 0; for (long x : ran) m = Math.max(m, x);
            out = (m - t0) / 1e6;
        }
        return out;
    }
}
