import dev.gpureactor.loom.GpuReactor;
import org.eclipse.jetty.server.Server;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.atomic.*;

/** Lifecycle: java Life stop MODE graceful|hard | reverse MODE | cycles MODE N */
public class Life {
    static String slowOrNot(long id) { // 1 in 16 clients sends long GPU waits (300..1500 ms)
        long c = id / 1_000_000_000L;
        return c % 16 == 3 ? "/slow?ms=" + (300 + (id % 5) * 300) : Probe.pathFor(id);
    }

    public static void main(String[] a) throws Exception {
        switch (a[0]) {
            case "stop" -> { boolean g = a[2].equals("graceful"); System.out.println(once(a[1], g ? 3000 : 0, g, false, 64, 2000, true)); }
            case "reverse" -> System.out.println(once(a[1], 3000, true, true, 64, 2000, true));
            case "cycles" -> cycles(a[1], Integer.parseInt(a[2]));
            default -> throw new IllegalArgumentException(a[0]);
        }
        System.out.println("final gar threads: " + Probe.garThreads());
        System.out.println("final threads: " + Probe.threadNames());
    }

    static String once(String mode, long stopTimeout, boolean graceful, boolean reactorFirst, int nClients, long loadMs, boolean verbose) throws Exception {
        GpuReactor reactor = GpuReactor.open();
        Probe.H h = new Probe.H(reactor);
        Server server = Probe.server(mode, reactor, h, stopTimeout, graceful, 0);
        int port = Probe.port(server);
        Probe.Stats st = new Probe.Stats();
        AtomicBoolean on = new AtomicBoolean(true);
        List<Thread> ts = Probe.clients(port, nClients, on, st, 20_000, Life::slowOrNot);
        Thread.sleep(loadMs);
        StringBuilder r = new StringBuilder("mode=" + mode + " stopTimeout=" + stopTimeout + " graceful=" + graceful + " order=" + (reactorFirst ? "reactor-then-server" : "server-then-reactor"));
        int inFlightAtStop = h.inFlight.get();
        long sentAtStop = st.sent.get();
        long t0 = System.nanoTime();
        long stopMs, closeMs;
        if (reactorFirst) {
            reactor.close();
            closeMs = (System.nanoTime() - t0) / 1_000_000;
            Thread.sleep(500); // the server keeps accepting meanwhile
            long t1 = System.nanoTime();
            server.stop();
            stopMs = (System.nanoTime() - t1) / 1_000_000;
        } else {
            server.stop();
            stopMs = (System.nanoTime() - t0) / 1_000_000;
            long t1 = System.nanoTime();
            reactor.close();
            closeMs = (System.nanoTime() - t1) / 1_000_000;
        }
        on.set(false);
        long clientsDoneMs = -1; int hung = 0;
        for (Thread t : ts) if (!t.join(Duration.ofSeconds(25))) hung++;
        clientsDoneMs = (System.nanoTime() - t0) / 1_000_000;
        // handlers still running after close?
        long until = System.nanoTime() + 5_000_000_000L;
        while (h.inFlight.get() > 0 && System.nanoTime() < until) Thread.sleep(10);
        long handlersDoneMs = (System.nanoTime() - t0) / 1_000_000;
        h.closeDevice();
        long doubledServer = h.handled.values().stream().filter(x -> x.get() > 1).count();
        long handledNotAnswered = h.handled.keySet().stream().filter(id -> !st.answered.containsKey(id)).count();
        r.append(String.format("%n  inFlightAtStop=%d sentBeforeStop=%d stopMs=%d closeMs=%d clientsJoinedMs=%d hungClients=%d handlersDoneMs=%d inFlightLeft=%d",
                inFlightAtStop, sentAtStop, stopMs, closeMs, clientsDoneMs, hung, handlersDoneMs, h.inFlight.get()));
        r.append("\n  client: ").append(st);
        r.append("\n  stopStartedAtMs=" + (t0 / 1_000_000) + " lostHandled=" + st.firstWrong.stream().filter(x -> x.startsWith("LOST")).map(x -> h.handled.containsKey(Long.parseLong(x.replaceAll(".*id=(\\d+).*", "$1")))).toList());
        r.append(String.format("%n  server: started=%d finished=%d threw=%d joinFailed=%d writeOk=%d writeFailed=%d doubledServer=%d handledNotAnswered=%d failures=%s",
                h.started.get(), h.finished.get(), h.threw.get(), h.joinFailed.get(), h.writeOk.get(), h.writeFailed.get(), doubledServer, handledNotAnswered, h.failures));
        Thread.sleep(100);
        r.append(String.format("%n  registrations=%d liveThreads=%d gar threads=%s warnings=%s", reactor.registrations(), reactor.stats().liveThreads(), Probe.garThreads(),
                reactor.warnings().stream().map(w -> w.toString().split(":")[0]).toList()));
        return r.toString();
    }

    static void cycles(String mode, int n) throws Exception {
        long heap0 = 0; int th0 = 0; String names0 = null;
        for (int i = 1; i <= n; i++) {
            String s = once(mode, 2000, true, false, 16, 1000, false);
            long heap = Probe.heapAfterGc(); int th = Probe.platformThreads();
            if (i == 1) { heap0 = heap; th0 = th; names0 = Probe.threadNames(); }
            String first = s.lines().filter(l -> l.contains("client:") || l.contains("registrations")).map(String::trim).reduce((x, y) -> x + " | " + y).orElse("");
            System.out.printf("cycle %d: threads=%d heapAfterGc=%.1fMiB %s%n", i, th, heap / 1048576.0, first);
        }
        System.out.printf("threads first=%d last=%d; heap first=%.1f last=%.1f MiB%n", th0, Probe.platformThreads(), heap0 / 1048576.0, Probe.heapAfterGc() / 1048576.0);
        System.out.println("names after cycle 1: " + names0);
    }
}
