import dev.gpureactor.backend.sim.*;
import dev.gpureactor.loom.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.LockSupport;

/**
 * FanT without its per-thread bookkeeping (no carrier name, no shared counters): each woken thread writes only its
 * own time, 64 bytes apart from the next one's, so two carriers running the wake share no line of the harness's.
 * Args: waiters rounds reactor|floor [pin]. pin: FanT's pin() (gar-carrier-i to CPU i mod 2, by TID).
 */
public class FanL {
    static final class Stamp { volatile long at; void stamp() { at = System.nanoTime(); } }
    static final class Rel { volatile boolean go; }
    static final int STRIDE = 8;
    public static void main(String[] a) throws Throwable {
        int waiters = Integer.parseInt(a[0]), rounds = Integer.parseInt(a[1]); boolean floor = a[2].equals("floor");
        boolean pin = a.length > 3 && a[3].equals("pin");
        long[] last = new long[rounds];
        try (SimDevice device = SimDevice.open(); GpuReactor r = GpuReactor.builder().build()) {
            SimStream stream = device.stream();
            for (int round = -20; round < rounds; round++) {
                if (round == -10 && pin) FanT.pin();
                long[] ran = new long[waiters * STRIDE]; Thread[] ts = new Thread[waiters];
                Stamp st = new Stamp();
                if (floor) {
                    Rel rel = new Rel();
                    for (int i = 0; i < waiters; i++) { int k = i * STRIDE; ts[i] = r.startVirtualThread(() -> { while (!rel.go) LockSupport.park(); ran[k] = System.nanoTime(); }); }
                    for (Thread t : ts) while (t.getState() != Thread.State.WAITING) Thread.sleep(1);
                    st.stamp(); rel.go = true; for (Thread t : ts) LockSupport.unpark(t);
                } else {
                    CountDownLatch gate = new CountDownLatch(1);
                    stream.hold(gate).compute(Duration.ZERO, st::stamp);
                    SimStream.Signal sig = stream.signal();
                    for (int i = 0; i < waiters; i++) { int k = i * STRIDE; ts[i] = r.startVirtualThread(() -> { r.await(sig.descriptor(), sig.port()).join(); ran[k] = System.nanoTime(); }); }
                    while (r.registrations() < waiters) Thread.sleep(1);
                    for (Thread t : ts) while (t.getState() != Thread.State.WAITING) Thread.sleep(1);
                    gate.countDown();
                }
                for (Thread t : ts) t.join();
                if (round >= 0) { long mx = 0; for (int i = 0; i < waiters; i++) mx = Math.max(mx, ran[i * STRIDE]); last[round] = mx - st.at; }
            }
        }
        Arrays.sort(last);
        System.out.printf("%s%s n=%d: last p50 %.0f us, p90 %.0f us%n", floor ? "floor" : "reactor", pin ? " pinned" : "", waiters, last[rounds / 2] / 1e3, last[rounds * 9 / 10] / 1e3);
    }
}
