import dev.gpureactor.loom.GpuReactor;
import org.eclipse.jetty.server.Server;
import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** java Feat idle|disc|dump MODE */
public class Feat {
    public static void main(String[] a) throws Exception {
        String what = a[0], mode = a[1];
        GpuReactor reactor = GpuReactor.open();
        Probe.H h = new Probe.H(reactor);
        Server server = Probe.server(mode, reactor, h, 2000, false, what.equals("idle") ? 300 : 0);
        int port = Probe.port(server);
        try {
            switch (what) {
                case "idle" -> idle(port, h, reactor, a.length > 2 ? a[2] : "slow");
                case "disc" -> disc(port, h, reactor, a.length > 2 ? a[2] : "slow");
                case "dump" -> dump(port, h, reactor);
            }
        } finally {
            server.stop();
            reactor.close();
            h.closeDevice();
            Thread.sleep(100);
            System.out.println("after close: registrations=" + reactor.registrations() + " gar threads=" + Probe.garThreads());
        }
    }

    static String path(String kind, long id, int ms) { return kind.equals("slow") ? "/slow?ms=" + ms + "&id=" + id : "/asyncslow?ms=" + ms + "&id=" + id; }

    /** 16 requests whose GPU wait (1000 ms) outlasts the connector's 300 ms idle timeout. */
    static void idle(int port, Probe.H h, GpuReactor reactor, String kind) throws Exception {
        int n = 16;
        ConcurrentLinkedQueue<String> out = new ConcurrentLinkedQueue<>();
        List<Thread> ts = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long id = i;
            ts.add(Thread.ofVirtual().start(() -> {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write(("GET " + path(kind, id, 1000) + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    Probe.Resp r = Probe.read(new BufferedInputStream(s.getInputStream()));
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    out.add(r == null ? "closed@" + ms : r.status() + (r.status() == 200 && r.body().equals(Probe.body(id)) ? " right" : " '" + r.body().lines().findFirst().orElse("") + "'") + "@" + ms);
                } catch (IOException e) { out.add(e.getClass().getSimpleName() + "@" + (System.nanoTime() - t0) / 1_000_000); }
            }));
        }
        for (Thread t : ts) t.join();
        Map<String, Integer> m = new TreeMap<>();
        for (String s : out) m.merge(s.replaceAll("@\\d+", "").replaceAll("\\d{3,}", "N"), 1, Integer::sum);
        System.out.println("idle(" + kind + ") client outcomes: " + m + " times(ms)=" + out.stream().map(s -> s.substring(s.indexOf('@') + 1)).sorted().toList());
        settle(h, reactor);
    }

    /** 16 clients send a 500 ms GPU request and close the socket 50 ms later. */
    static void disc(int port, Probe.H h, GpuReactor reactor, String kind) throws Exception {
        int n = 16;
        h.slowEntered = new CountDownLatch(n);
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long id = i;
            ts.add(Thread.ofVirtual().start(() -> {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.getOutputStream().write(("GET " + path(kind, id, 500) + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    h.slowEntered.await(10, TimeUnit.SECONDS);
                    Thread.sleep(50);
                    s.setSoLinger(true, 0); // RST
                } catch (Exception e) { System.out.println("client " + e); }
            }));
        }
        for (Thread t : ts) t.join();
        System.out.println("disc(" + kind + "): clients gone; handlers in flight=" + h.inFlight.get() + " registrations=" + reactor.registrations());
        settle(h, reactor);
    }

    static void settle(Probe.H h, GpuReactor reactor) throws Exception {
        long t0 = System.nanoTime();
        while (h.started.get() < 16 && System.nanoTime() - t0 < 5_000_000_000L) Thread.sleep(5);
        while ((h.inFlight.get() > 0 || reactor.registrations() > 0 || h.writeOk.get() + h.writeFailed.get() + h.failures.getOrDefault("async:x", new AtomicInteger()).get() < h.finished.get() - h.threw.get() - h.joinFailed.get())
                && System.nanoTime() - t0 < 5_000_000_000L) Thread.sleep(10);
        Thread.sleep(300);
        System.out.printf("settled after %d ms: started=%d finished=%d inFlight=%d joinFailed=%d writeOk=%d writeFailed=%d failures=%s registrations=%d stats.registrations=%d handlerThreads=%s%n",
                (System.nanoTime() - t0) / 1_000_000, h.started.get(), h.finished.get(), h.inFlight.get(), h.joinFailed.get(), h.writeOk.get(), h.writeFailed.get(), h.failures,
                reactor.registrations(), reactor.stats().registrations(), h.threadKinds);
    }

    static void dump(int port, Probe.H h, GpuReactor reactor) throws Exception {
        Probe.Stats st = new Probe.Stats();
        AtomicBoolean on = new AtomicBoolean(true);
        List<Thread> ts = Probe.clients(port, 256, on, st, 10_000, Probe::pathFor);
        Thread.sleep(3000);
        Path f = Path.of("out/dump-" + System.getProperty("mode", "x") + "-" + ProcessHandle.current().pid() + ".json");
        Files.deleteIfExists(f);
        int inFlight = h.inFlight.get();
        Process p = new ProcessBuilder(System.getProperty("java.home") + "/bin/jcmd", Long.toString(ProcessHandle.current().pid()), "Thread.dump_to_file", "-format=json", f.toString())
                .redirectErrorStream(true).start();
        String jout = new String(p.getInputStream().readAllBytes());
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        on.set(false);
        for (Thread t : ts) t.join(Duration.ofSeconds(20));
        System.out.println("jcmd exited=" + done + " rc=" + (done ? p.exitValue() : -1) + " out=" + jout.trim().replace('\n', ' '));
        String j = Files.readString(f);
        // count thread entries and those whose stack has our handler
        int threads = 0, handlers = 0, handlersVirtual = 0; Map<String, Integer> containers = new TreeMap<>();
        String container = "?";
        Map<String, Integer> handlerNames = new TreeMap<>();
        for (String line : j.split("\n")) {
            String l = line.trim();
            if (l.startsWith("\"container\":")) container = l.substring(13).replace("\"", "").replace(",", "").trim();
        }
        // rough parse: split into thread objects
        String[] parts = j.split("\"tid\":");
        for (int i = 1; i < parts.length; i++) {
            String t = parts[i];
            threads++;
            String name = t.replaceAll("(?s).*?\"name\": \"([^\"]*)\".*", "$1");
            boolean virt = t.contains("\"virtual\": true");
            if (t.contains("Probe$H.handle")) { handlers++; if (virt) handlersVirtual++; handlerNames.merge(name.replaceAll("\\d+", "N"), 1, Integer::sum); }
        }
        List<String> cont = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"container\": \"([^\"]*)\"").matcher(j);
        while (m.find()) cont.add(m.group(1).replaceAll("@[0-9a-f]+", "@X").replaceAll("\\d+", "N"));
        System.out.println("dump: bytes=" + j.length() + " threads=" + threads + " withHandlerFrame=" + handlers + " (virtual " + handlersVirtual + ") handlerInFlightAtDump=" + inFlight
                + " names=" + handlerNames + " containers=" + cont);
        System.out.println("load: " + st);
    }
}
