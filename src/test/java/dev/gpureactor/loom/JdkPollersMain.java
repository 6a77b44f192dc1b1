package dev.gpureactor.loom;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run by {@link JdkPollersTest} in a fresh JVM, where no virtual thread has done socket I/O yet: the first
 * socket read that parks is a reactor thread's. Prints one {@code key=value} line per fact the test checks.
 */
public final class JdkPollersMain {
    private JdkPollersMain() {}

    public static void main(String[] args) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            GpuReactor r = GpuReactor.builder().carriers(1).jmx(false).build();
            System.out.println("reactor.read=" + readOn(r::startVirtualThread, server));
            r.close();
            System.out.println("retired=" + r.carriers().orElseThrow().awaitExit(Duration.ofSeconds(10)));
            // A virtual thread of the JDK's own scheduler, after the reactor is gone: its read parks on the JDK's pollers.
            System.out.println("jdk.read=" + readOn(Thread::startVirtualThread, server));
        }
        System.out.println("done");
        System.exit(0); // a poller stranded on the closed pool would hold nothing here, but a hung read would
    }

    /** Starts a reader with {@code starter} that parks in a socket read until a byte comes 100 ms later; "ok" or "hung". */
    private static String readOn(java.util.function.Function<Runnable, Thread> starter, ServerSocket server) throws Exception {
        AtomicInteger got = new AtomicInteger(-1);
        try (Socket client = new Socket(server.getInetAddress(), server.getLocalPort()); Socket accepted = server.accept()) {
            InputStream in = client.getInputStream();
            Thread reader = starter.apply(() -> {
                try {
                    got.set(in.read());
                } catch (Exception e) {
                    got.set(-2);
                }
            });
            Thread.sleep(100); // the reader parks in its read
            OutputStream out = accepted.getOutputStream();
            out.write(7);
            out.flush();
            reader.join(Duration.ofSeconds(10));
            return got.get() == 7 ? "ok" : reader.isAlive() ? "hung" : "failed:" + got.get();
        }
    }
}
