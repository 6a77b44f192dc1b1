package dev.gpureactor.interop;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.loom.GpuReactor;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A Jetty core handler that does what a GPU-backed endpoint does: {@code GET /work?id=N} queues a
 * kernel on a simulated stream that writes the answer, a store behind it, then blocks its request
 * thread in {@code reactor.await(...).join()} and answers {@code "N value\n"}. It records which thread
 * ran each request and which ids reached it, so that a test can say where handlers ran and which
 * requests the server took. {@code id=held} queues its kernel behind {@link #release}, to keep one
 * request in flight for as long as a test wants.
 *
 * <p>A blocking handler ({@link Handler.Abstract}'s default invocation type): Jetty runs it on a thread
 * that may block, a virtual thread of its pool's virtual-thread executor when it has one.
 */
final class GpuHandler extends Handler.Abstract {
    static final String PATH = "/work";
    static final long HELD_ID = Long.MAX_VALUE;
    private static final int STREAMS = 8;

    private final GpuReactor reactor;
    private final SimDevice device = SimDevice.open();
    private final SimStream[] streams = new SimStream[STREAMS];
    /** A j.u.c. lock, not a monitor: a request thread waiting for it unmounts. Keeps a kernel and its store together. */
    private final ReentrantLock[] locks = new ReentrantLock[STREAMS];
    private final SimStream heldStream;

    /** Opened by the test to let the held request's kernel run. */
    final CountDownLatch release = new CountDownLatch(1);
    /** Counted down once the held request's handler has queued its work and is about to wait. */
    final CountDownLatch heldWaiting = new CountDownLatch(1);
    /** Ids whose handler ran, with how often. */
    final Map<Long, Integer> handled = new ConcurrentHashMap<>();
    /** Threads that ran a request, by {@link Thread#toString()} when it was not one of the reactor's. */
    final Map<String, Boolean> offReactor = new ConcurrentHashMap<>();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger ranOnReactor = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();

    GpuHandler(GpuReactor reactor) {
        this.reactor = reactor;
        for (int i = 0; i < STREAMS; i++) {
            streams[i] = device.stream();
            locks[i] = new ReentrantLock();
        }
        heldStream = device.stream();
    }

    /** The answer request {@code id} must get. */
    static long expected(long id) {
        long z = id * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 31);
    }

    /** 0.5 to 3 ms of simulated work, fixed by the id. */
    private static Duration work(long id) { return Duration.ofNanos(1_000 * (500 + Math.floorMod(expected(id), 2_500L))); }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        inFlight.incrementAndGet();
        try {
            noteThread(Thread.currentThread());
            String q = request.getHttpURI().getQuery();
            long id = q == null ? -1 : q.equals("id=held") ? HELD_ID : q.startsWith("id=") ? Long.parseLong(q.substring(3)) : -1;
            if (id < 0) throw new IllegalArgumentException("expected ?id=N, got " + q);
            handled.merge(id, 1, Integer::sum);
            long[] out = new long[1];
            SimStream.Signal done;
            if (id == HELD_ID) {
                heldStream.hold(release).compute(Duration.ZERO, () -> out[0] = expected(HELD_ID));
                done = heldStream.signal();
                heldWaiting.countDown();
            } else {
                int s = (int) Long.remainderUnsigned(id, STREAMS);
                locks[s].lock();
                try {
                    streams[s].compute(work(id), () -> out[0] = expected(id));
                    done = streams[s].signal();
                } finally {
                    locks[s].unlock();
                }
            }
            // The request's own virtual thread parks here until the store; the payload is visible after the join.
            long value = reactor.await(done.descriptor(), done.port(), () -> out[0]).join();
            noteThread(Thread.currentThread()); // the thread that resumed after the wait
            answer(response, callback, 200, id + " " + value + "\n");
        } catch (RuntimeException e) {
            failed.incrementAndGet();
            answer(response, callback, 500, e + "\n");
        } finally {
            inFlight.decrementAndGet();
        }
        return true;
    }

    private void noteThread(Thread t) {
        // The reactor's virtual threads are named gar-vt-N and run on its carriers (gar-carrier-N) or, woken
        // by a parker that hosts them, on that parker (gar-parker-<line>); a mounted virtual thread's
        // toString ends with @ and the name of the thread it runs on.
        String s = t.toString();
        if (t.isVirtual() && t.getName().startsWith("gar-vt-") && (s.contains("@gar-carrier-") || s.contains("@gar-parker-"))) {
            ranOnReactor.incrementAndGet();
        } else {
            offReactor.put(s, true);
        }
    }

    private static void answer(Response response, Callback callback, int status, String text) {
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /** Stops the simulated device (after the server has stopped: no handler is left waiting). */
    void closeDevice() { device.close(); }
}
