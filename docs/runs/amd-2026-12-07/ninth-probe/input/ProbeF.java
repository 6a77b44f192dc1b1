import dev.gpureactor.core.*;
import dev.gpureactor.loom.*;
import java.time.Duration;
import java.util.*;

/** A port whose query() sneaky-throws IOException; a reactor virtual thread joins with a 2 s limit. Repeats until the joiner strands; prints its state and stack. */
public class ProbeF {
    public static void main(String[] a) throws Exception {
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {});
        for (int round = 1; round <= 30; round++) {
            List<String> warns = Collections.synchronizedList(new ArrayList<>());
            GpuReactor r = GpuReactor.builder().warnings(w -> warns.add(w.toString())).build();
            CompletionLine line = CompletionLine.allocate();
            CompletionPort p = new CompletionPort() {
                public boolean query() { throw ProbeB.sneaky(new java.io.IOException("sneaky")); }
                public void block() {} public void arm() {} public boolean park(long b) { return false; }
            };
            GpuFuture<Void> f = r.await(new MemoryDescriptor(line, Slot.of(0), 1), p);
            String[] res = new String[1];
            Thread vt = r.startVirtualThread(() -> { try { f.join(Duration.ofSeconds(2)); res[0] = "value"; } catch (ReactorException e) { res[0] = "CODED " + e.code(); } });
            vt.join(6000);
            if (vt.isAlive()) {
                System.out.println("round " + round + ": joiner (limit 2 s) still alive after 6 s; future state=" + f.state() + " code=" + f.failureCode() + "; thread state=" + vt.getState());
                for (StackTraceElement e : vt.getStackTrace()) System.out.println("    at " + e);
                r.close();
                vt.join(5000);
                System.out.println("  after close+5 s: alive=" + vt.isAlive() + " state=" + vt.getState() + " result=" + res[0]);
                for (String w : warns) if (w.contains("LiveAtClose")) System.out.println("  " + w);
                System.exit(0);
            }
            r.close(); line.close();
        }
        System.out.println("no strand in 30 rounds");
        System.exit(0);
    }
}
