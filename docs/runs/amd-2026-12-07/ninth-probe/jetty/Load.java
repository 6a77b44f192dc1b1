import dev.gpureactor.loom.GpuReactor;
import org.eclipse.jetty.server.Server;
import java.util.*;
import java.util.concurrent.atomic.*;

/** Correctness under load: java Load MODE CLIENTS SECONDS */
public class Load {
    public static void main(String[] a) throws Exception {
        String mode = a[0]; int clients = Integer.parseInt(a[1]); int secs = Integer.parseInt(a[2]);
        GpuReactor reactor = GpuReactor.open();
        Probe.H h = new Probe.H(reactor);
        Server server = Probe.server(mode, reactor, h, 5000, false, 0);
        int port = Probe.port(server);
        Probe.Stats st = new Probe.Stats();
        AtomicBoolean on = new AtomicBoolean(true);
        long t0 = System.nanoTime();
        boolean gpuOnly = "gpu".equals(System.getProperty("paths"));
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        List<Thread> ts = Probe.clients(port, clients, on, st, 10_000, gpuOnly ? (id -> "/gpu") : Probe::pathFor);
        Thread.sleep(secs * 1000L);
        on.set(false);
        for (Thread t : ts) if (!t.join(java.time.Duration.ofSeconds(20))) System.out.println("CLIENT HUNG " + t);
        double el = (System.nanoTime() - t0) / 1e9;
        System.out.printf("process cpu per request = %.0f us (server+clients)%n", (os.getProcessCpuTime() - cpu0) / 1e3 / Math.max(1, st.sent.get()));
        long doubledServer = h.handled.values().stream().filter(x -> x.get() > 1).count();
        long notHandled = st.answered.keySet().stream().filter(id -> !h.handled.containsKey(id)).count();
        long handledNotAnswered = h.handled.keySet().stream().filter(id -> !st.answered.containsKey(id)).count();
        System.out.printf("mode=%s clients=%d %.1fs rps=%.0f %s%n", mode, clients, el, st.sent.get() / el, st);
        System.out.printf("server: started=%d finished=%d inFlight=%d threw=%d joinFailed=%d writeOk=%d writeFailed=%d doubledServer=%d answeredNotHandled=%d handledNotAnswered=%d failures=%s%n",
                h.started.get(), h.finished.get(), h.inFlight.get(), h.threw.get(), h.joinFailed.get(), h.writeOk.get(), h.writeFailed.get(), doubledServer, notHandled, handledNotAnswered, h.failures);
        System.out.println("handler threads: " + h.threadKinds);
        server.stop();
        System.out.println("registrations before close=" + reactor.registrations() + " stats.liveThreads=" + reactor.stats().liveThreads());
        reactor.close();
        h.closeDevice();
        Thread.sleep(200);
        System.out.println("gar threads after close: " + Probe.garThreads() + " warnings=" + reactor.warnings().size());
        boolean ok = st.wrong.get() == 0 && st.lost.get() == 0 && st.closedNoAnswer.get() == 0 && st.otherStatus.get() == 0 && doubledServer == 0 && handledNotAnswered == 0
                && st.sent.get() == st.right.get() + st.right500.get();
        System.out.println(ok ? "RESULT OK" : "RESULT FAIL");
    }
}
