import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.LockSupport;
public class JdkFloor {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]), rounds = Integer.parseInt(a[1]);
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rounds; r++) {
            Thread[] ts = new Thread[n]; AtomicBoolean rel = new AtomicBoolean(); CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) ts[i] = Thread.ofVirtual().start(() -> { while (!rel.get()) LockSupport.park(); done.countDown(); });
            for (Thread t : ts) while (t.getState() != Thread.State.WAITING) Thread.sleep(1);
            long t0 = System.nanoTime(); rel.set(true);
            for (Thread t : ts) LockSupport.unpark(t);
            done.await(); long d = System.nanoTime() - t0;
            for (Thread t : ts) t.join();
            sb.append(String.format("%.1f ", d / 1e6));
        }
        System.out.println("n=" + n + " ms per wake: " + sb);
    }
}
