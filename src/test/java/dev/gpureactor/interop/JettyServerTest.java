package dev.gpureactor.interop;

import dev.gpureactor.bench.service.Http1;
import dev.gpureactor.loom.GpuReactor;
import dev.gpureactor.loom.Scheduler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Jetty 12 server (core handlers, no servlets) whose request threads are the reactor's: its
 * {@link QueuedThreadPool}'s virtual-thread executor is {@code reactor.newExecutor()}, so each request
 * runs on a virtual thread of the reactor's carrier pool, and blocks in {@code reactor.await(...).join()}
 * on simulated GPU work ({@link GpuHandler}). Keep-alive clients on plain sockets, on the loopback.
 *
 * <ul>
 *   <li>{@link #handlersRunOnTheReactorsVirtualThreadsAndEveryAnswerIsRight}: 32 clients, 25 requests
 *       each, one connection each; every answer is checked, and every request ran (before and after its
 *       wait) on a virtual thread of the reactor, on one of its carriers.
 *   <li>{@link #stopUnderLoadAnswersEveryRequestTheServerTookThenTheReactorCloses}: the shutdown order a
 *       user follows, {@code server.stop()} (graceful) and then {@code reactor.close()}, while the clients
 *       keep sending and one request is held in flight across the stop: every request a handler took is
 *       answered with its value; the others are refused (503 from Jetty's {@link GracefulHandler}, or the
 *       connection closed or refused before any response), never half-answered; the reactor then closes
 *       with nothing registered.
 *   <li>{@link #closingTheReactorFirstLeavesJettyAcceptingConnectionsItCannotServe}: the other order, as
 *       the README warns.
 * </ul>
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JettyServerTest {
    private static final Duration IO_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration JOIN = Duration.ofSeconds(60);

    /** The three lines of the README, plus a loopback connector on a free port. */
    private static Server jetty(GpuReactor reactor, org.eclipse.jetty.server.Handler handler, long stopTimeoutMillis) throws Exception {
        QueuedThreadPool qtp = new QueuedThreadPool();
        qtp.setVirtualThreadsExecutor(reactor.newExecutor());
        Server server = new Server(qtp);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost(InetAddress.getLoopbackAddress().getHostAddress());
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(handler);
        server.setStopTimeout(stopTimeoutMillis);
        server.start();
        return server;
    }

    private static InetSocketAddress address(Server server) {
        ServerConnector c = (ServerConnector) server.getConnectors()[0];
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), c.getLocalPort());
    }

    @Test
    void handlersRunOnTheReactorsVirtualThreadsAndEveryAnswerIsRight() throws Exception {
        int clients = 32, perClient = 25;
        try (GpuReactor reactor = GpuReactor.open()) {
            assertEquals(Scheduler.CARRIER_POOL, reactor.schedulerResolution().running(),
                    "the build runs the tests with --add-opens java.base/java.lang, so the reactor has its own carriers");
            GpuHandler handler = new GpuHandler(reactor);
            Server server = jetty(reactor, handler, 0);
            Outcomes out = new Outcomes();
            try {
                List<Thread> threads = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    long first = (long) c * perClient;
                    threads.add(Thread.ofPlatform().name("jetty-test-client-" + c).start(
                            () -> out.client(address(server), first, perClient, new AtomicBoolean(true))));
                }
                for (Thread t : threads) assertTrue(t.join(JOIN), "a client did not finish: " + t);
            } finally {
                server.stop();
                handler.closeDevice();
            }
            assertEquals(clients * perClient, out.right.get(), "every request answered with its value: " + out);
            assertEquals(0, out.wrong.get() + out.refused.get() + out.broken.get(), out.toString());
            assertEquals(clients, out.connections.get(), "keep-alive: one connection per client, never reopened");
            assertTrue(handler.offReactor.isEmpty(), "handlers ran off the reactor's virtual threads: " + handler.offReactor.keySet());
            assertEquals(2 * clients * perClient, handler.ranOnReactor.get(), "every request, before and after its wait");
            assertEquals(0, handler.failed.get());
            assertEquals(0, reactor.registrations(), "every wait settled");
        }
    }

    @Test
    void stopUnderLoadAnswersEveryRequestTheServerTookThenTheReactorCloses() throws Exception {
        int clients = 32, perClient = 400; // far more than are served before the stop: the clients are busy when it comes
        GpuReactor reactor = GpuReactor.open();
        GpuHandler handler = new GpuHandler(reactor);
        Server server = jetty(reactor, new GracefulHandler(handler), 30_000);
        InetSocketAddress address = address(server);
        Outcomes out = new Outcomes();
        AtomicBoolean on = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        int[] inFlightAtStop = {0};
        try {
            Thread held = Thread.ofPlatform().name("jetty-test-held").start(() -> out.held(address));
            assertTrue(handler.heldWaiting.await(JOIN.toSeconds(), TimeUnit.SECONDS), "the held request reached its handler");
            for (int c = 0; c < clients; c++) {
                long first = (long) c * perClient;
                threads.add(Thread.ofPlatform().name("jetty-test-client-" + c).start(() -> out.client(address, first, perClient, on)));
            }
            long until = System.nanoTime() + JOIN.toNanos();
            while (out.right.get() < 300 && System.nanoTime() < until) Thread.sleep(5);
            assertTrue(out.right.get() >= 300, "the clients got going: " + out);

            Thread stopper = Thread.ofPlatform().name("jetty-test-stop").start(() -> {
                try {
                    server.stop();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            until = System.nanoTime() + JOIN.toNanos();
            while (!server.isStopping() && !server.isStopped() && System.nanoTime() < until) Thread.onSpinWait();
            inFlightAtStop[0] = handler.inFlight.get();
            Thread.sleep(50); // the stop is under way (connectors shut) while the held request still waits for its GPU work
            assertTrue(held.isAlive(), "the held request is still unanswered when the stop is under way");
            handler.release.countDown();
            assertTrue(stopper.join(JOIN), "server.stop() returned");
            assertTrue(held.join(JOIN), "the held request's client finished");
            for (Thread t : threads) assertTrue(t.join(JOIN), "a client finished: " + t);
            assertTrue(inFlightAtStop[0] >= 1, "requests were in flight when the stop began");
        } finally {
            on.set(false);
            handler.release.countDown();
            if (!server.isStopped()) server.stop();
        }
        // The server has stopped: nothing runs on the reactor's threads any more, so it closes at once.
        long t0 = System.nanoTime();
        reactor.close();
        long closeMillis = (System.nanoTime() - t0) / 1_000_000;
        handler.closeDevice();
        System.out.println("JettyServerTest stop under load: " + out + ", in flight at the stop " + inFlightAtStop[0]
                + ", reactor.close() " + closeMillis + " ms");

        assertTrue(reactor.isClosed());
        assertEquals(0, reactor.registrations(), "no wait left registered");
        assertTrue(closeMillis < 10_000, "reactor.close() after server.stop() took " + closeMillis + " ms");
        assertEquals(1, out.heldRight.get(), "the request held in flight across the stop was answered with its value: " + out);
        assertEquals(0, out.wrong.get(), out.toString());
        assertEquals(0, out.broken.get(), "no request cut off after its answer began, or answered with another status: " + out);
        assertEquals(0, handler.failed.get(), "no handler failed (none saw a shut-down reactor)");
        for (Map.Entry<Long, Integer> e : handler.handled.entrySet()) {
            assertEquals(1, e.getValue(), "request " + e.getKey() + " reached a handler once");
            if (e.getKey() != GpuHandler.HELD_ID) {
                assertEquals(1, out.answered.getOrDefault(e.getKey(), 0), "request " + e.getKey() + " reached a handler, so it was answered");
            }
        }
        assertEquals(handler.handled.size() - 1, out.right.get(), "every answer came from a handler, once: " + out);
        for (long id : out.refusedIds.keySet()) {
            assertTrue(!handler.handled.containsKey(id), "request " + id + " was refused after a handler took it");
        }
        assertTrue(out.refused.get() >= 1, "the clients were still sending when the server stopped: " + out);
    }

    /**
     * The wrong order, as the README describes it: with the reactor closed first, Jetty still accepts
     * connections, but each request's virtual thread is refused by the shut-down executor, so Jetty closes
     * the connection without an answer and no handler runs.
     */
    @Test
    void closingTheReactorFirstLeavesJettyAcceptingConnectionsItCannotServe() throws Exception {
        GpuReactor reactor = GpuReactor.open();
        GpuHandler handler = new GpuHandler(reactor);
        Server server = jetty(reactor, handler, 0);
        Outcomes out = new Outcomes();
        try {
            reactor.close();
            for (long id = 0; id < 3; id++) out.client(address(server), id, 1, new AtomicBoolean(true));
        } finally {
            server.stop();
            handler.closeDevice();
        }
        assertEquals(3, out.connections.get(), "Jetty accepted every connection: " + out);
        assertEquals(3, out.refused.get(), "and closed each without an answer: " + out);
        assertEquals(0, out.timedOut.get(), "closed, not left unanswered: " + out);
        assertEquals(0, out.right.get() + out.status503.get(), out.toString());
        assertTrue(handler.handled.isEmpty(), "no handler ran");
    }

    /** What the clients saw, by request id. */
    static final class Outcomes {
        final AtomicInteger right = new AtomicInteger(), wrong = new AtomicInteger(), refused = new AtomicInteger(),
                broken = new AtomicInteger(), connections = new AtomicInteger(), heldRight = new AtomicInteger(),
                status503 = new AtomicInteger(), timedOut = new AtomicInteger();
        final Map<Long, Integer> answered = new ConcurrentHashMap<>();
        final Map<Long, Boolean> refusedIds = new ConcurrentHashMap<>();

        /**
         * One keep-alive client: requests {@code first .. first+count-1} in turn on one connection while
         * {@code on}; it stops at the first refusal (a 503, or the connection closed or refused before any
         * response byte: the server is stopping), and it reopens a connection only where the server closed
         * it after an answer.
         */
        void client(InetSocketAddress server, long first, int count, AtomicBoolean on) {
            Socket s = null;
            try {
                for (long id = first; id < first + count && on.get(); id++) {
                    if (s == null) {
                        try {
                            s = connect(server);
                        } catch (IOException e) {
                            refuse(id);
                            return;
                        }
                    }
                    Http1.Response r;
                    try {
                        Http1.writeGet(s.getOutputStream(), "127.0.0.1", GpuHandler.PATH + "?id=" + id);
                    } catch (IOException e) {
                        refuse(id); // the request never left whole (a broken pipe: the server closed first)
                        return;
                    }
                    try {
                        r = Http1.read(in(s));
                    } catch (Http1.ClosedBeforeResponse e) {
                        refuse(id); // closed before any byte of an answer: the server did not take it
                        return;
                    } catch (java.net.SocketTimeoutException e) {
                        // No answer within the read timeout: a connection reopened while the server was
                        // stopping, which it never took (it never reached a handler: the refusedIds check
                        // below fails if it did, and so does "reached a handler, so it was answered").
                        timedOut.incrementAndGet();
                        refuse(id);
                        return;
                    } catch (IOException e) {
                        if (e.getMessage() != null && e.getMessage().contains("reset")) {
                            refuse(id); // reset before any response byte
                        } else {
                            broken.incrementAndGet();
                            brokenWhy.add(id + ": " + e);
                        }
                        return;
                    }
                    if (r.status() == 503) {
                        status503.incrementAndGet();
                        refuse(id);
                        return;
                    }
                    if (r.status() != 200) {
                        broken.incrementAndGet();
                        brokenWhy.add(id + ": status " + r.status());
                        return;
                    }
                    answered.merge(id, 1, Integer::sum);
                    if (r.text().equals(id + " " + GpuHandler.expected(id) + "\n")) right.incrementAndGet();
                    else wrong.incrementAndGet();
                    if (!r.keepAlive()) {
                        close(s);
                        s = null;
                    }
                }
            } finally {
                close(s);
            }
        }

        /** The held request: one {@code GET /work?id=held}. */
        void held(InetSocketAddress server) {
            try (Socket s = connect(server)) {
                Http1.writeGet(s.getOutputStream(), "127.0.0.1", GpuHandler.PATH + "?id=held");
                Http1.Response r = Http1.read(in(s));
                String want = GpuHandler.HELD_ID + " " + GpuHandler.expected(GpuHandler.HELD_ID) + "\n";
                if (r.status() == 200 && r.text().equals(want)) heldRight.incrementAndGet();
                else wrong.incrementAndGet();
            } catch (IOException e) {
                broken.incrementAndGet();
                brokenWhy.add("held: " + e);
            }
        }

        private void refuse(long id) {
            refused.incrementAndGet();
            refusedIds.put(id, true);
        }

        /** Why each broken answer broke (the failure message names it). */
        final java.util.Queue<String> brokenWhy = new java.util.concurrent.ConcurrentLinkedQueue<>();

        private final Map<Socket, InputStream> ins = new ConcurrentHashMap<>();

        private InputStream in(Socket s) throws IOException {
            InputStream in = ins.get(s);
            if (in == null) {
                in = new BufferedInputStream(s.getInputStream(), 1024);
                ins.put(s, in);
            }
            return in;
        }

        private Socket connect(InetSocketAddress server) throws IOException {
            Socket s = new Socket();
            try {
                s.setTcpNoDelay(true);
                s.setSoTimeout((int) IO_TIMEOUT.toMillis());
                s.connect(server, (int) IO_TIMEOUT.toMillis());
                connections.incrementAndGet();
                return s;
            } catch (IOException e) {
                s.close();
                throw e;
            }
        }

        private void close(Socket s) {
            if (s == null) return;
            ins.remove(s);
            try {
                s.close();
            } catch (IOException e) {
                // closing: nothing to do
            }
        }

        @Override
        public String toString() {
            return "right " + right + ", wrong " + wrong + ", refused " + refused + " (503: " + status503 + ", unanswered after "
                    + IO_TIMEOUT.toSeconds() + " s: " + timedOut + "), broken " + broken
                    + (brokenWhy.isEmpty() ? "" : " " + brokenWhy)
                    + ", connections " + connections + ", held answered " + heldRight;
        }
    }
}
