package dev.gpureactor.loom;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ReactorException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loaded HTTP server closing its reactor mid-load, in a JVM of its own (run by
 * {@link CloseUnderLoadTest}, which also checks that this JVM exits by itself). A JDK
 * {@link HttpServer} on 127.0.0.1 runs its exchanges on {@code reactor.newExecutor()}; each handler
 * awaits a simulated device wait (0.5–5 ms) and answers {@code id * 7}, or 503 with the coded error
 * when the wait failed. 200 keep-alive clients on the JDK's default scheduler check every answer.
 * Prints {@code key=value} facts, then {@code done}.
 */
public final class CloseUnderLoadMain {
    private static final int CLIENTS = 200;

    public static void main(String[] args) throws Exception {
        GpuReactor reactor = GpuReactor.builder().warnings(w -> System.out.println("warning=" + w)).build();
        SimDevice dev = SimDevice.open();
        List<SimStream> streams = new ArrayList<>();
        for (int i = 0; i < 16; i++) streams.add(dev.stream());
        AtomicLong handlersIn = new AtomicLong(), handlersOut = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.createContext("/", ex -> {
            handlersIn.incrementAndGet();
            try {
                long id = Long.parseLong(ex.getRequestURI().getQuery().substring(3));
                SimStream s = streams.get((int) (id % streams.size()));
                GpuFuture<Long> f;
                synchronized (s) {
                    long nanos = (long) (500_000 * Math.pow(10, ThreadLocalRandom.current().nextDouble()));
                    s.compute(Duration.ofNanos(nanos));
                    SimStream.Signal sig = s.signal();
                    f = reactor.await(sig.descriptor(), sig.port(), () -> id * 7);
                }
                try {
                    long value = f.join();
                    Thread.sleep(Duration.ofNanos(100_000)); // a timed park: its timer is the JDK's unparker's
                    answer(ex, 200, Long.toString(value));
                } catch (InterruptedException e) {
                    answer(ex, 500, "interrupted");
                } catch (ReactorException e) {
                    answer(ex, 503, e.getMessage());
                }
            } finally {
                handlersOut.incrementAndGet();
            }
        });
        server.setExecutor(reactor.newExecutor());
        server.start();
        int port = server.getAddress().getPort();

        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean closing = new AtomicBoolean();
        AtomicLong ids = new AtomicLong();
        AtomicLong values = new AtomicLong(), coded = new AtomicLong(), wrong = new AtomicLong(),
                hung = new AtomicLong(), lostBeforeClose = new AtomicLong(), refusedAfterClose = new AtomicLong();
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            clients.add(Thread.ofVirtual().start(() -> {
                while (!stop.get()) {
                    long id = ids.incrementAndGet();
                    boolean afterClose = closing.get();
                    try {
                        HttpURLConnection conn = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/?id=" + id).toURL().openConnection();
                        conn.setConnectTimeout(20_000);
                        conn.setReadTimeout(20_000); // a hang guard: an unanswered request
                        int code = conn.getResponseCode();
                        try (InputStream in = code == 200 ? conn.getInputStream() : conn.getErrorStream()) {
                            String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
                            if (code == 200 && body.equals(Long.toString(id * 7))) values.incrementAndGet();
                            else if (code == 503 && body.contains("ShutDown")) coded.incrementAndGet();
                            else wrong.incrementAndGet();
                        }
                    } catch (java.net.SocketTimeoutException e) {
                        hung.incrementAndGet();
                    } catch (IOException e) {
                        // The server closes a connection it can no longer dispatch (its executor shut down).
                        if (afterClose || closing.get()) refusedAfterClose.incrementAndGet(); else lostBeforeClose.incrementAndGet();
                    }
                }
            }));
        }
        // Close under load: once the load is really running (on a busy machine a fixed pause may end
        // before the first answer), bounded so a load that never starts fails the test's checks.
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Thread.sleep(500);
        while (values.get() < 50 && System.nanoTime() - until < 0) Thread.sleep(50);
        // The JDK's own threads that resume virtual threads: each must outlive our close.
        List<Thread> jdkThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("VirtualThread-") || t.getName().contains("Poller")).toList();
        closing.set(true);
        reactor.close();
        System.out.println("closed=true");
        Thread.sleep(300);
        stop.set(true);
        boolean clientsEnded = true;
        for (Thread t : clients) clientsEnded &= t.join(Duration.ofSeconds(60));
        Thread stopper = Thread.ofPlatform().start(() -> server.stop(1));
        boolean stopReturned = stopper.join(Duration.ofSeconds(60));
        boolean carriersLeft = reactor.carriers().orElseThrow().awaitExit(Duration.ofSeconds(60));
        dev.close();
        System.out.println("values=" + values.get());
        System.out.println("coded=" + coded.get());
        System.out.println("wrong=" + wrong.get());
        System.out.println("hung=" + hung.get());
        System.out.println("lostBeforeClose=" + lostBeforeClose.get());
        System.out.println("refusedAfterClose=" + refusedAfterClose.get());
        System.out.println("handlersUnfinished=" + (handlersIn.get() - handlersOut.get()));
        System.out.println("clientsEnded=" + clientsEnded);
        System.out.println("stopReturned=" + stopReturned);
        System.out.println("carriersLeft=" + carriersLeft);
        System.out.println("liveThreads=" + reactor.carriers().orElseThrow().liveThreads());
        for (Thread t : jdkThreads) System.out.println("jdk." + t.getName() + "=" + (t.isAlive() ? "alive" : "died"));
        System.out.println("jdkThreads=" + jdkThreads.size());
        System.out.println("done");
        // No System.exit: the test checks that this JVM ends by itself.
    }

    private static void answer(HttpExchange ex, int code, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(code, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }
}
