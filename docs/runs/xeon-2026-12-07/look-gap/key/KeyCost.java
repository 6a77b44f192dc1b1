import dev.gpureactor.core.*;
import dev.gpureactor.parker.SlotPoint;
import java.lang.foreign.Arena;

/** The estimator's per-completion work as a service's scan does it: each wait its own SlotPoint, compared with the last, then one observeRun. Args: rounds opsPerRound. */
public class KeyCost {
    public static void main(String[] a) {
        int rounds = Integer.parseInt(a[0]), ops = Integer.parseInt(a[1]);
        CompletionLine[] lines = new CompletionLine[2];
        for (int i = 0; i < 2; i++) lines[i] = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "l" + i, () -> { });
        PointTable<Object> table = new PointTable<>();
        DeadlinePlan plan = new DeadlinePlan(100_000, 20_000, 50_000_000, 8);
        long[] res = new long[1];
        long sink = 0;
        double[] ns = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            Object prev = null;
            long t0 = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                SlotPoint k = new SlotPoint(lines[i & 1], (i >>> 1) & 15);
                if (prev != null && k.equals(prev)) sink++;
                res[0] = 1_000_000 + (i & 1023);
                table.observeRun(k, plan, res, 1, false);
                prev = k;
            }
            ns[r] = (System.nanoTime() - t0) / (double) ops;
        }
        java.util.Arrays.sort(ns);
        System.out.printf("ns per completion: median %.1f (min %.1f, max %.1f) over %d rounds; %d%n", ns[rounds / 2], ns[0], ns[rounds - 1], rounds, sink);
    }
}
