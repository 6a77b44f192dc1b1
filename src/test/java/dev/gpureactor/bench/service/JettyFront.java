package dev.gpureactor.bench.service;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Jetty;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutorService;

/**
 * The service benchmark's server as Jetty 12 (core handlers), a test-scope dependency: a
 * {@link QueuedThreadPool} whose virtual-thread executor is the mode's executor in a reactor mode
 * ({@code reactor.newExecutor()}), and Jetty's own default virtual threads
 * ({@link VirtualThreads#getDefaultVirtualThreadsExecutor()}) in the others (the watcher's and the
 * sleep poller's). Its pool threads (acceptor, selectors) are named {@value #POOL}-N and charged to the
 * {@code http-dispatcher} group.
 */
final class JettyFront implements ServiceBench.Front {
    static final String POOL = "jetty-qtp";

    @Override
    public Started start(Mode mode, ExecutorService executor, ServiceBench.Answerer answerer) throws IOException {
        QueuedThreadPool qtp = new QueuedThreadPool();
        qtp.setName(POOL);
        qtp.setVirtualThreadsExecutor(mode instanceof Mode.Reactor ? executor : VirtualThreads.getDefaultVirtualThreadsExecutor());
        Server server = new Server(qtp);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost(InetAddress.getLoopbackAddress().getHostAddress());
        connector.setPort(0);
        connector.setAcceptQueueSize(16_384); // as the JDK front's backlog: the largest levels connect at once
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() { // blocking: runs on a virtual thread of the executor above
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                ServiceBench.Answer a = answerer.answer(request.getHttpURI().getQuery());
                response.setStatus(a.status());
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, a.body().length);
                response.write(true, ByteBuffer.wrap(a.body()), callback);
                return true;
            }
        });
        try {
            server.start();
        } catch (Exception e) {
            throw new IOException("Jetty did not start", e);
        }
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), connector.getLocalPort());
        return new Started() {
            @Override
            public InetSocketAddress address() { return address; }

            @Override
            public void stop() {
                try {
                    server.stop();
                } catch (Exception e) {
                    throw new IllegalStateException("Jetty did not stop", e);
                }
            }
        };
    }

    @Override
    public boolean owns(String threadGroup) { return threadGroup.startsWith(POOL); }

    @Override
    public String note() {
        return "server: Jetty " + Jetty.VERSION + " (core handler, QueuedThreadPool); request threads: reactor.newExecutor() in the"
                + " reactor modes, Jetty's default virtual threads (the JDK's scheduler) in the others";
    }
}
