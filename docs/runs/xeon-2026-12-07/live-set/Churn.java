import dev.gpureactor.loom.*;
import java.util.*;
import java.util.concurrent.*;

public class Churn {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]); int rounds = Integer.parseInt(a[1]);
        try (GpuReactor r = GpuReactor.builder().build()) {
            double[] ns = new double[rounds];
            for (int k = 0; k < rounds + 3; k++) {
                CountDownLatch done = new CountDownLatch(n);
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) r.startVirtualThread(done::countDown);
                done.await();
                long t = System.nanoTime() - t0;
                if (k >= 3) ns[k - 3] = (double) t / n;
            }
            Arrays.sort(ns);
            System.out.printf("churn %d threads: %.0f ns a thread (median of %d; p25 %.0f p75 %.0f)%n", n, ns[rounds/2], rounds, ns[rounds/4], ns[rounds*3/4]);
        }
    }
}
