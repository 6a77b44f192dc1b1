import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** Shared pieces: the server in four modes, the handler, the load client. */
public class Probe {
    // ---------------------------------------------------------------- server
    /** rq: QTP + reactor.newExecutor(); rv: VirtualThreadPool + reactor.threadFactory();
     *  jq: QTP + Jetty's default virtual threads; jv: VirtualThreadPool, Jetty's default. */
    static Server server(String mode, GpuReactor reactor, Handler handler, long stopTimeout, boolean graceful, long idleTimeout) throws Exception {
        ThreadPool pool;
        switch (mode) {
            case "rq" -> { QueuedThreadPool q = new QueuedThreadPool(); q.setVirtualThreadsExecutor(reactor.newExecutor()); pool = q; }
            case "rv" -> { VirtualThreadPool v = new VirtualThreadPool(); ThreadFactory tf = reactor.threadFactory();
                           v.setVirtualThreadsExecutor(r -> tf.newThread(r).start()); pool = v; }
            case "rve" -> { VirtualThreadPool v = new VirtualThreadPool(); v.setVirtualThreadsExecutor(reactor.newExecutor()); pool = v; }
            case "jq" -> { QueuedThreadPool q = new QueuedThreadPool(); q.setVirtualThreadsExecutor(VirtualThreads.getDefaultVirtualThreadsExecutor()); pool = q; }
            case "jv" -> pool = new VirtualThreadPool();
            default -> throw new IllegalArgumentException(mode);
        }
        Server server = new Server(pool);
        ServerConnector c = new ServerConnector(server);
        c.setHost("127.0.0.1");
        c.setPort(0);
        c.setAcceptQueueSize(4096);
        if (idleTimeout > 0) c.setIdleTimeout(idleTimeout);
        server.addConnector(c);
        server.setHandler(graceful ? new GracefulHandler(handler) : handler);
        server.setStopTimeout(stopTimeout);
        server.start();
        return server;
    }

    static int port(Server s) { return ((ServerConnector) s.getConnectors()[0]).getLocalPort(); }

    // ---------------------------------------------------------------- handler
    static long payload(long id) { return (id * 2654435761L) ^ 0x5DEECE66DL; }
    static String body(long id) { return id + " " + payload(id); }
    static Duration work(long id) { // 0.5..5 ms log-uniform, fixed by id
        double u = ((payload(id) >>> 11) % 10_000) / 10_000.0;
        return Duration.ofNanos((long) (500_000 * Math.pow(10, u)));
    }

    static final class H extends Handler.Abstract {
        final GpuReactor reactor;
        final SimDevice device = SimDevice.open();
        final SimStream[] streams = new SimStream[16];
        final ConcurrentHashMap<Long, AtomicInteger> handled = new ConcurrentHashMap<>();
        final AtomicInteger inFlight = new AtomicInteger(), started = new AtomicInteger(), finished = new AtomicInteger(),
                threw = new AtomicInteger(), writeFailed = new AtomicInteger(), writeOk = new AtomicInteger(), joinFailed = new AtomicInteger();
        final ConcurrentHashMap<String, AtomicInteger> failures = new ConcurrentHashMap<>();
        final ConcurrentHashMap<String, AtomicInteger> threadKinds = new ConcurrentHashMap<>();
        final Object[] locks = new Object[8];
        final Path file;
        final byte[] fileBytes = new byte[4096];
        volatile CountDownLatch slowEntered = new CountDownLatch(0);

        H(GpuReactor reactor) throws IOException {
            this.reactor = reactor;
            for (int i = 0; i < streams.length; i++) streams[i] = device.stream();
            for (int i = 0; i < locks.length; i++) locks[i] = new Object();
            new Random(1).nextBytes(fileBytes);
            file = Files.createTempFile("probe-jetty", ".bin");
            Files.write(file, fileBytes);
            file.toFile().deleteOnExit();
        }

        GpuFuture<Long> launch(long id, Duration d) {
            SimStream s = streams[(int) Math.floorMod(id, (long) streams.length)];
            long[] holder = new long[1];
            SimStream.Signal sig;
            synchronized (s) {
                s.compute(d, () -> holder[0] = payload(id));
                sig = s.signal();
            }
            return reactor.await(sig.descriptor(), sig.port(), () -> holder[0]);
        }

        long gpu(long id) {
            long v = launch(id, work(id)).join();
            if (v != payload(id)) throw new IllegalStateException("wrong payload for " + id);
            return v;
        }

        void fail(String what) { failures.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet(); }

        Callback counting(Callback cb) {
            return Callback.from(() -> { writeOk.incrementAndGet(); cb.succeeded(); },
                    x -> { writeFailed.incrementAndGet(); fail("write:" + x.getClass().getSimpleName()); cb.failed(x); });
        }

        @Override
        public boolean handle(Request req, Response resp, Callback cb) throws Exception {
            String path = Request.getPathInContext(req);
            Fields q = Request.extractQueryParameters(req);
            long id = Long.parseLong(q.getValue("id"));
            handled.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
            Thread t = Thread.currentThread();
            threadKinds.computeIfAbsent(path + " " + (t.isVirtual() ? "virtual:" : "platform:") + t.getName().replaceAll("\\d+", "N"), k -> new AtomicInteger()).incrementAndGet();
            started.incrementAndGet();
            inFlight.incrementAndGet();
            boolean async = false;
            try {
                switch (path) {
                    case "/gpu" -> gpu(id);
                    case "/mix" -> mix(id);
                    case "/throw" -> { gpu(id); threw.incrementAndGet(); throw new IllegalStateException("handler throws for " + id); }
                    case "/slow" -> { // a long GPU wait: idle timeouts, disconnects, stops
                        long ms = Long.parseLong(q.getValue("ms"));
                        slowEntered.countDown();
                        long v = launch(id, Duration.ofMillis(ms)).join();
                        if (v != payload(id)) throw new IllegalStateException("wrong payload");
                    }
                    case "/async", "/asyncslow" -> { // return at once; the GPU wait's completion (another thread) writes and completes the Callback
                        async = true;
                        if (path.equals("/asyncslow")) slowEntered.countDown();
                        GpuFuture<Long> f = launch(id, path.equals("/asyncslow") ? Duration.ofMillis(Long.parseLong(q.getValue("ms"))) : work(id));
                        f.onComplete((v, x) -> {
                            try {
                                threadKinds.computeIfAbsent("onComplete " + (Thread.currentThread().isVirtual() ? "virtual:" : "platform:") + Thread.currentThread().getName().replaceAll("\\d+", "N"), k -> new AtomicInteger()).incrementAndGet();
                                if (x != null) { fail("async:" + x.getClass().getSimpleName()); cb.failed(x); return; }
                                resp.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
                                Content.Sink.write(resp, true, v == payload(id) ? body(id) : "WRONG", counting(cb));
                            } finally { inFlight.decrementAndGet(); finished.incrementAndGet(); }
                        });
                        return true;
                    }
                    default -> throw new IllegalArgumentException(path);
                }
            } catch (RuntimeException e) {
                if (!path.equals("/throw")) { joinFailed.incrementAndGet(); fail("join:" + e.getClass().getSimpleName() + ":" + String.valueOf(e.getMessage()).split("\n")[0].replaceAll("\\d+", "N")); }
                throw e;
            } finally {
                if (!async) { inFlight.decrementAndGet(); finished.incrementAndGet(); }
            }
            resp.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            Content.Sink.write(resp, true, body(id), counting(cb));
            return true;
        }

        void mix(long id) throws Exception {
            switch ((int) Math.floorMod(id / 10, 5L)) {
                case 0 -> { byte[] b = Files.readAllBytes(file); if (!Arrays.equals(b, fileBytes)) throw new IllegalStateException("file"); gpu(id); }
                case 1 -> { synchronized (locks[(int) (id % locks.length)]) { Thread.sleep(0, 200_000); } gpu(id); }
                case 2 -> { // Object.wait until the GPU wait's completion callback notifies
                    Object box = new Object();
                    boolean[] done = {false};
                    long[] got = {0};
                    launch(id, work(id)).onComplete((v, x) -> { synchronized (box) { got[0] = v == null ? -1 : v; done[0] = true; box.notifyAll(); } });
                    synchronized (box) { while (!done[0]) box.wait(); }
                    if (got[0] != payload(id)) throw new IllegalStateException("wrong payload (wait)");
                }
                case 3 -> { Thread.sleep(1); gpu(id); }
                default -> { synchronized (locks[(int) (id % locks.length)]) { gpu(id); } } // awaits the GPU inside a monitor
            }
        }

        void closeDevice() { device.close(); }
    }

    // ---------------------------------------------------------------- client
    static String pathFor(long id) {
        int k = (int) Math.floorMod(id, 10L);
        return k <= 4 ? "/gpu" : k <= 6 ? "/mix" : k == 7 ? "/throw" : "/async";
    }

    record Resp(int status, String body, boolean close) {}

    /** One HTTP/1.1 response, framed by Content-Length or chunked; null on EOF before a status line. */
    static Resp read(InputStream in) throws IOException {
        String status = line(in);
        if (status == null) return null;
        int code = Integer.parseInt(status.split(" ")[1]);
        int len = -1; boolean chunked = false, close = false;
        for (String h; !(h = line(in)).isEmpty(); ) {
            int c = h.indexOf(':');
            String k = h.substring(0, c).trim().toLowerCase(Locale.ROOT), v = h.substring(c + 1).trim();
            if (k.equals("content-length")) len = Integer.parseInt(v);
            if (k.equals("transfer-encoding") && v.contains("chunked")) chunked = true;
            if (k.equals("connection") && v.equalsIgnoreCase("close")) close = true;
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        if (chunked) {
            for (int n; (n = Integer.parseInt(line(in).split(";")[0].trim(), 16)) > 0; ) { b.write(in.readNBytes(n)); line(in); }
            line(in);
        } else if (len >= 0) {
            byte[] x = in.readNBytes(len);
            if (x.length < len) throw new EOFException("short body");
            b.write(x);
        } else { b.write(in.readAllBytes()); close = true; }
        return new Resp(code, b.toString(StandardCharsets.UTF_8), close);
    }

    static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c; (c = in.read()) != -1; ) {
            if (c == '\n') { int n = sb.length(); if (n > 0 && sb.charAt(n - 1) == '\r') sb.setLength(n - 1); return sb.toString(); }
            sb.append((char) c);
        }
        if (sb.isEmpty()) return null;
        throw new EOFException("eof mid-line");
    }

    static final class Stats {
        final AtomicLong sent = new AtomicLong(), right = new AtomicLong(), right500 = new AtomicLong(), wrong = new AtomicLong(),
                lost = new AtomicLong(), closedNoAnswer = new AtomicLong(), refused = new AtomicLong(), s503 = new AtomicLong(),
                connections = new AtomicLong(), maxUnansweredMs = new AtomicLong(), otherStatus = new AtomicLong();
        final ConcurrentHashMap<Long, Integer> answered = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<String> firstWrong = new ConcurrentLinkedQueue<>();
        void wrong(String s) { wrong.incrementAndGet(); if (firstWrong.size() < 5) firstWrong.add(s); }
        public String toString() {
            return "sent=" + sent + " right=" + right + " right500=" + right500 + " wrong=" + wrong + " lost(timeout)=" + lost
                    + " closedNoAnswer=" + closedNoAnswer + " refused=" + refused + " 503=" + s503 + " other=" + otherStatus
                    + " connections=" + connections + " maxPendingMsAtClose=" + maxUnansweredMs + (firstWrong.isEmpty() ? "" : " firstWrong=" + firstWrong);
        }
    }

    /** Closed-loop keep-alive client on its own socket; ids client*1e9 + n. Stops when on is false or the server refuses. */
    static void client(int port, int client, AtomicBoolean on, Stats st, int readTimeoutMs, java.util.function.LongFunction<String> path) {
        long n = 0;
        Socket s = null; InputStream in = null; OutputStream out = null;
        try {
            while (on.get()) {
                if (s == null) {
                    try { s = new Socket(); s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                          s.setSoTimeout(readTimeoutMs); s.setTcpNoDelay(true);
                          in = new BufferedInputStream(s.getInputStream()); out = s.getOutputStream(); }
                    catch (IOException e) { st.refused.incrementAndGet(); s = null; return; }
                    st.connections.incrementAndGet();
                }
                long id = (long) client * 1_000_000_000L + (n++);
                String p = path.apply(id);
                long t0 = System.nanoTime();
                st.sent.incrementAndGet();
                Resp r;
                try {
                    out.write(("GET " + p + (p.contains("?") ? "&" : "?") + "id=" + id + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    r = read(in);
                } catch (SocketTimeoutException e) {
                    st.lost.incrementAndGet(); st.firstWrong.add("LOST " + p + " id=" + id + " sentAtMs=" + (t0 / 1_000_000) + " conn#" + st.connections.get()); try { s.close(); } catch (IOException ignored) {} s = null; continue;
                } catch (IOException e) {
                    r = null;
                }
                if (r == null) { // closed without answer
                    st.closedNoAnswer.incrementAndGet();
                    st.maxUnansweredMs.accumulateAndGet((System.nanoTime() - t0) / 1_000_000, Math::max);
                    try { s.close(); } catch (IOException ignored) {} s = null; continue;
                }
                if (st.answered.put(id, r.status) != null) st.wrong("doubled " + id);
                if (p.startsWith("/throw")) {
                    if (r.status == 500) st.right500.incrementAndGet(); else if (r.status == 503) st.s503.incrementAndGet(); else st.wrong("throw " + id + " -> " + r.status);
                } else if (r.status == 200) {
                    if (r.body.equals(body(id))) st.right.incrementAndGet(); else st.wrong(id + " body '" + r.body + "'");
                } else if (r.status == 503) st.s503.incrementAndGet();
                else { st.otherStatus.incrementAndGet(); if (st.firstWrong.size() < 5) st.firstWrong.add("status " + r.status + " for " + p + " " + id + ": " + r.body.lines().findFirst().orElse("")); }
                st.maxUnansweredMs.accumulateAndGet(0, Math::max);
                if (r.close) { try { s.close(); } catch (IOException ignored) {} s = null; }
            }
        } finally { if (s != null) try { s.close(); } catch (IOException ignored) {} }
    }

    static List<Thread> clients(int port, int n, AtomicBoolean on, Stats st, int readTimeoutMs, java.util.function.LongFunction<String> path) {
        List<Thread> ts = new ArrayList<>();
        for (int c = 0; c < n; c++) { int cc = c; ts.add(Thread.ofVirtual().name("client-" + c).start(() -> client(port, cc, on, st, readTimeoutMs, path))); }
        return ts;
    }

    // ---------------------------------------------------------------- JVM checks
    static List<String> garThreads() {
        List<String> l = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) if (t.getName().startsWith("gar-")) l.add(t.getName());
        Collections.sort(l);
        return l;
    }
    static long heapAfterGc() {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) { System.gc(); Runtime r = Runtime.getRuntime(); best = Math.min(best, r.totalMemory() - r.freeMemory()); }
        return best;
    }
    static int platformThreads() { return java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount(); }
    static String threadNames() {
        Map<String, Integer> m = new TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) m.merge(t.getName().replaceAll("\\d+", "N"), 1, Integer::sum);
        return m.toString();
    }
}
