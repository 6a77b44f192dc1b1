package dev.gpureactor.bench.gpu;

import dev.gpureactor.backend.cuda.CudaPort;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/*
 * Implementation overview. A ring between the host and the device, with no other thread in it:
 *
 *   stream:  wait go >= s ; store s ; wait go >= s+1 ; store s+1 ; ...   (queued ahead by the feeder)
 *   VT:      register future(s) ; stamp t(s) ; go = s (release) ; join ; register future(s+1) ; ...
 *
 * t(s+1) - t(s) is one round trip: the device sees go = s over PCIe, stores s into the line, the
 * parker sees the store and unparks (or hosts) the virtual thread, which registers its next wait
 * and writes the next go word. The feeder (the caller, which holds the context) keeps the stream
 * a window ahead of the virtual thread, and never on the ring's path.
 */

/**
 * Step 4 of the GPU run: the end-to-end round trip through a parked virtual thread, RTT/2.
 *
 * <p><b>Handshake.</b> The feeder publishes each armed port into {@code ports} (a volatile array
 * store, release) before raising {@code fed} (volatile); the virtual thread reads {@code fed}, then
 * the port (acquire). The virtual thread raises {@code done} (volatile) after each join; the feeder
 * reads it to keep its window, parking in 200 µs slices (it is never on the ring's path).
 */
public final class RoundTrip {
    private static final int WINDOW = 128;

    private RoundTrip() {}

    /**
     * @param reactor   what the virtual thread ran on: the parkers' park and scheduler
     * @param asked     round trips asked for (after the warm-up)
     * @param completed round trips measured
     * @param halfRtt   RTT/2
     * @param error     why it stopped early, or empty
     */
    public record Result(String variant, String reactor, int asked, int completed, Latency halfRtt, String error) {}

    /** {@code warmup} + {@code iterations} round trips through a virtual thread of {@code reactor}. */
    public static Result run(GpuRig rig, String variant, GpuReactor reactor, int warmup, int iterations, long timeoutNanos,
                             Consumer<String> progress) {
        int total = warmup + iterations + 1; // n + 1 stamps make n round trips
        long first = rig.word() + 1;
        AtomicReferenceArray<CudaPort> ports = new AtomicReferenceArray<>(total);
        long[] stamps = new long[total];
        Ring ring = new Ring(rig, reactor, ports, stamps, first, Thread.currentThread());
        int fed = 0;
        for (; fed < Math.min(total, WINDOW); fed++) fed(rig, ports, first, fed);
        ring.fed = fed;
        Thread vt = reactor.threadFactory().newThread(ring::run);
        progress.accept("rtt: " + variant + " ...");
        vt.start();
        String error = "";
        long end = System.nanoTime() + timeoutNanos;
        int progressed = 0;
        while (ring.done < total && ring.failure == null) {
            int done = ring.done;
            if (done != progressed) { // the bound is on a round trip, not on the run
                progressed = done;
                end = System.nanoTime() + timeoutNanos;
            }
            if (fed < total && fed - done < WINDOW / 2) {
                int upTo = Math.min(total, done + WINDOW);
                for (; fed < upTo; fed++) fed(rig, ports, first, fed);
                ring.fed = fed; // release: the ports above are published
            }
            if (System.nanoTime() - end > 0) {
                error = "timed out at round trip " + done + " (word " + rig.word() + ")";
                break;
            }
            LockSupport.parkNanos(200_000);
        }
        ring.stop = true;
        rig.go(first + fed - 1); // releases every queued wait, should the ring have stopped early
        try {
            vt.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (ring.failure != null) error = "failed: " + ring.failure;
        int measured = Math.max(0, Math.min(ring.done, total) - 1 - warmup);
        long[] half = new long[Math.max(0, measured)];
        for (int k = 0; k < measured; k++) half[k] = (stamps[warmup + k + 1] - stamps[warmup + k]) / 2;
        Result r = new Result(variant, reactor.park(), iterations, measured, Latency.of(half, measured), error);
        progress.accept("rtt: " + variant + ": " + measured + "/" + iterations + " round trips, RTT/2 p50 " + r.halfRtt().p50()
                + " ns, p99 " + r.halfRtt().p99() + " ns" + (error.isEmpty() ? "" : ", " + error));
        return r;
    }

    private static void fed(GpuRig rig, AtomicReferenceArray<CudaPort> ports, long first, int k) {
        rig.waitFor(first + k);
        ports.set(k, rig.store(first + k));
    }

    /** The virtual thread's side of the ring. */
    private static final class Ring {
        private final GpuRig rig;
        private final GpuReactor reactor;
        private final AtomicReferenceArray<CudaPort> ports;
        private final long[] stamps;
        private final long first;
        private final Thread feeder;
        /** Pairs queued and their ports published: raised by the feeder after {@code ports.set} (both volatile). */
        volatile int fed;
        /** Round trips joined; its write publishes the stamps below it (release), read by the feeder (acquire). */
        volatile int done;
        volatile boolean stop;
        volatile Throwable failure;

        Ring(GpuRig rig, GpuReactor reactor, AtomicReferenceArray<CudaPort> ports, long[] stamps, long first, Thread feeder) {
            this.rig = rig;
            this.reactor = reactor;
            this.ports = ports;
            this.stamps = stamps;
            this.first = first;
            this.feeder = feeder;
        }

        void run() {
            try {
                for (int k = 0; k < stamps.length && !stop; k++) {
                    while (fed <= k) { // acquire: the port below is published
                        if (stop) return;
                        LockSupport.parkNanos(10_000);
                    }
                    CudaPort p = ports.get(k);
                    GpuFuture<Void> f = reactor.await(p.descriptor().orElseThrow(), p);
                    stamps[k] = System.nanoTime();
                    rig.go(first + k);
                    f.join();
                    done = k + 1; // release: publishes stamps[k]
                }
            } catch (Throwable t) {
                failure = t;
            } finally {
                LockSupport.unpark(feeder);
            }
        }
    }
}
