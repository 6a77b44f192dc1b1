import dev.gpureactor.core.*;
import dev.gpureactor.loom.*;
import dev.gpureactor.backend.sim.*;
import java.lang.management.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** Focused repros. ProbeD executor-throws | lying-park [naive] | honest-never [naive] | sneaky-interrupt-naive */
public class ProbeD {
    public static void main(String[] a) throws Exception {
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> System.out.println("  UNCAUGHT on " + t.getName() + ": " + e));
        var b = GpuReactor.builder();
        if (a.length > 1 && a[1].equals("naive")) b.kind(ExecutorKind.parse("naive"));
        GpuReactor r = b.build();
        SimDevice dev = SimDevice.open();
        switch (a[0]) {
            case "executor-throws" -> {
                int ran = 0, n = 20;
                for (int i = 0; i < n; i++) {
                    SimStream s = dev.stream(); s.compute(Duration.ofMillis(5)); SimStream.Signal sg = s.signal();
                    GpuFuture<String> f = r.await(sg.descriptor(), sg.port(), () -> "v");
                    CountDownLatch done = new CountDownLatch(1);
                    f.onComplete((v, t) -> done.countDown(), cmd -> { throw new IllegalStateException("executor refuses with ISE"); });
                    f.join(Duration.ofSeconds(5));
                    if (done.await(1, TimeUnit.SECONDS)) ran++;
                }
                System.out.println("executor-throws: actions run " + ran + " of " + n + " (an executor whose execute throws IllegalStateException)");
                // already-complete future
                SimStream s = dev.stream(); SimStream.Signal sg = s.signal();
                GpuFuture<String> f = r.await(sg.descriptor(), sg.port(), () -> "v");
                f.join(Duration.ofSeconds(5));
                CountDownLatch done = new CountDownLatch(1);
                try { f.onComplete((v, t) -> done.countDown(), cmd -> { throw new IllegalStateException("executor refuses with ISE"); }); System.out.println("  onComplete on a done future returned normally"); }
                catch (Throwable t) { System.out.println("  onComplete on a done future threw " + t); }
                System.out.println("  action on done future ran: " + done.await(1, TimeUnit.SECONDS));
                // control: RejectedExecutionException is rescued
                CountDownLatch done2 = new CountDownLatch(1);
                f.onComplete((v, t) -> done2.countDown(), cmd -> { throw new RejectedExecutionException("ree"); });
                System.out.println("  control (RejectedExecutionException) ran: " + done2.await(1, TimeUnit.SECONDS));
            }
            case "lying-park", "honest-never" -> {
                CompletionLine line = CompletionLine.allocate();
                boolean lie = a[0].equals("lying-park");
                AtomicLong queries = new AtomicLong();
                CompletionPort p = new CompletionPort() {
                    public boolean query() { queries.incrementAndGet(); return false; }
                    public void block() throws InterruptedException { Thread.sleep(Long.MAX_VALUE); }
                    public void arm() {}
                    public boolean park(long bound) { if (lie) return true; java.util.concurrent.locks.LockSupport.parkNanos(bound); return false; }
                };
                GpuFuture<Void> f = r.await(new MemoryDescriptor(line, Slot.of(0), 1), p);
                String[] res = new String[1];
                Thread pt = Thread.ofPlatform().daemon(true).start(() -> { try { f.join(); res[0] = "value"; } catch (ReactorException e) { res[0] = "CODED " + e.code(); } catch (Throwable t) { res[0] = "OTHER " + t; } });
                ThreadMXBean mx = ManagementFactory.getThreadMXBean();
                Thread.sleep(500);
                long c0 = mx.getThreadCpuTime(pt.threadId()); long q0 = queries.get(); long t0 = System.nanoTime();
                Thread.sleep(2000);
                long c1 = mx.getThreadCpuTime(pt.threadId()); long q1 = queries.get(); long t1 = System.nanoTime();
                System.out.printf("%s%s: platform joiner CPU %.2f cores over 2 s, %d queries/s, state=%s%n", a[0], a.length > 1 ? " naive" : "", (c1 - c0) / (double) (t1 - t0), (q1 - q0) * 1_000_000_000L / (t1 - t0), f.state());
                r.close();
                pt.join(5000);
                System.out.println("  after reactor close, joiner: " + (pt.isAlive() ? "STILL WAITING" : res[0]));
            }
            case "sneaky-interrupt-naive" -> {
                CompletionLine line = CompletionLine.allocate();
                AtomicLong queries = new AtomicLong();
                CompletionPort p = new CompletionPort() {
                    public boolean query() { queries.incrementAndGet(); throw ProbeB.sneaky(new InterruptedException("sneaky")); }
                    public void block() {}
                    public void arm() {}
                    public boolean park(long bound) { java.util.concurrent.locks.LockSupport.parkNanos(bound); return false; }
                };
                GpuFuture<Void> f = r.await(new MemoryDescriptor(line, Slot.of(0), 1), p);
                String[] res = new String[1];
                Thread pt = Thread.ofPlatform().daemon(true).start(() -> { try { f.join(); res[0] = "value"; } catch (ReactorException e) { res[0] = "CODED " + e.code() + " interrupted flag=" + Thread.currentThread().isInterrupted(); } catch (Throwable t) { res[0] = "OTHER " + t; } });
                pt.join(3000);
                System.out.println("sneaky-interrupt" + (a.length > 1 ? " naive" : "") + ": platform joiner -> " + (pt.isAlive() ? "STILL WAITING" : res[0]));
                long q0 = queries.get(); long cpu0 = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
                Thread.sleep(2000);
                long q1 = queries.get(); long cpu1 = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
                System.out.printf("  afterwards: state=%s, %d queries/s, process CPU %.2f cores%n", f.state(), (q1 - q0) / 2, (cpu1 - cpu0) / 2e9);
                for (Thread t : Thread.getAllStackTraces().keySet()) if (t.getName().startsWith("gar-")) System.out.println("  thread " + t.getName() + " " + t.getState());
                r.close();
                Thread.sleep(500);
                long q2 = queries.get(); Thread.sleep(1000);
                System.out.println("  after close: state=" + f.state() + " code=" + f.failureCode() + " queries/s=" + (queries.get() - q2));
            }
        }
        System.exit(0);
    }
}
