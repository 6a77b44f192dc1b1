package dev.gpureactor.bench.gpu;

import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.backend.cuda.CudaPort;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import dev.gpureactor.loom.Scheduler;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/*
 * Implementation overview. One harness thread (the caller, which holds the rig's context) and one
 * waiter thread per waiter kind, one kind after another over the same rig:
 *
 *   harness: queue "wait go >= s" and "store s" on the stream (the store's port)
 *            hand the port to the waiter, wait until it is armed (registered, or inside its call)
 *            sleep the delay (the waiter parks meanwhile), stamp, write go = s (release)
 *            wait until the waiter ran; read the observer's stamp; record woke - seen, seen - go
 *   waiter:  take the port; start its wait; armed = s; wait; stamp woke; done = s
 *
 * The stream cannot store before the go word, so every waiter is waiting (a reactor's future
 * registered, a virtual thread parked) when the device stores.
 */

/**
 * Step 3 of the GPU run: the store → waiter-running latency when the device writes the word,
 * for each {@link Waiter} in one run, from the {@link Observer}'s stamp of the store's visibility.
 *
 * <p><b>Handshake.</b> {@code port}, {@code requested} and {@code armed} are volatile, each written
 * by one thread: the harness writes {@code port}, then {@code requested}; the waiter reads {@code
 * requested}, then {@code port}. The waiter publishes "ran again after {@code s} at t" through a
 * {@link Stamp} ({@code woke}: time plain, then sequence number release), which the harness reads
 * (acquire, then time). Each side unparks the other after its write, and parks in bounded slices,
 * so a lost unpark costs a slice, never a hang.
 */
public final class WakeRun {
    private WakeRun() {}

    /**
     * One waiter's result.
     *
     * @param waiter    the waiter kind
     * @param park      what the reactor's parkers parked with, or the waiting call
     * @param asked     measured waits asked for
     * @param completed measured waits that completed
     * @param wake      store seen → waiter running
     * @param device    go written → store seen (the device's turnaround over PCIe, and the stand-in's poll)
     * @param early     waits whose waiter ran before the observer stamped the store (counted as 0)
     * @param error     why the waiter stopped, or empty
     */
    public record Result(Waiter waiter, String park, int asked, int completed, Latency wake, Latency device, int early,
                         String error) {}

    /**
     * Runs every waiter of {@code waiters}, {@code warmup} + {@code iterations} waits each, the go
     * word written {@code delayNanos} after the waiter is armed.
     */
    public static List<Result> run(GpuRig rig, List<Waiter> waiters, int warmup, int iterations, long delayNanos,
                                   long waitTimeoutNanos, Consumer<String> progress) {
        List<Result> out = new ArrayList<>();
        try (Observer observer = new Observer(rig)) {
            String stopped = null;
            for (Waiter w : waiters) {
                if (stopped != null) {
                    out.add(new Result(w, "", iterations, 0, Latency.NONE, Latency.NONE, 0, "not run: " + stopped));
                    continue;
                }
                progress.accept("wake: " + w.id() + " ...");
                Result r = runOne(rig, observer, w, warmup, iterations, delayNanos, waitTimeoutNanos);
                out.add(r);
                progress.accept("wake: " + w.id() + ": " + r.completed() + "/" + r.asked() + " waits, p50 " + r.wake().p50()
                        + " ns, p99 " + r.wake().p99() + " ns" + (r.error().isEmpty() ? "" : ", " + r.error()));
                if (!r.error().isEmpty() && r.error().startsWith("timed out")) stopped = w.id() + " " + r.error();
            }
        }
        return out;
    }

    private static Result runOne(GpuRig rig, Observer observer, Waiter kind, int warmup, int iterations, long delayNanos,
                                 long timeoutNanos) {
        GpuReactor reactor = switch (kind) {
            case REACTOR_HARDWARE -> GpuReactor.builder().build();
            case REACTOR_FALLBACK -> GpuReactor.builder().hardwarePark(false).build();
            case REACTOR_JDK -> GpuReactor.builder().scheduler(Scheduler.JDK_DEFAULT).build();
            case STREAM_SYNCHRONIZE, STREAM_QUERY -> null;
        };
        String park = switch (kind) {
            case REACTOR_HARDWARE, REACTOR_FALLBACK, REACTOR_JDK -> reactor.park()
                    + (reactor.schedulerResolution().running() == Scheduler.CARRIER_POOL ? ", carrier pool" : ", JDK scheduler");
            case STREAM_SYNCHRONIZE -> "cuStreamSynchronize, " + rig.blockingSync();
            case STREAM_QUERY -> "cuStreamQuery loop";
        };
        Loop loop = new Loop(rig, kind, reactor, Thread.currentThread());
        Thread thread = reactor != null ? reactor.threadFactory().newThread(loop::run)
                : Thread.ofPlatform().name("gar-gpu-waiter").daemon(true).unstarted(loop::run);
        long[] wake = new long[iterations];
        long[] device = new long[iterations];
        int n = 0, early = 0;
        String error = "";
        thread.start();
        try {
            for (int i = 0; i < warmup + iterations; i++) {
                final long seq = rig.word() + 1;
                rig.waitFor(seq);
                loop.port = rig.store(seq);
                loop.requested = seq;
                LockSupport.unpark(thread);
                if (!loop.until(() -> loop.armed == seq, timeoutNanos)) {
                    error = loop.failure != null ? "failed: " + loop.failure : "timed out arming wait " + seq;
                    rig.go(seq);
                    break;
                }
                sleepUntil(System.nanoTime() + delayNanos);
                long goAt = System.nanoTime();
                rig.go(seq);
                if (!loop.until(() -> loop.woke.atIfReached(seq) >= 0, timeoutNanos)) {
                    error = loop.failure != null ? "failed: " + loop.failure : "timed out waiting for store " + seq
                            + " (word " + rig.word() + ")";
                    break;
                }
                long woke = loop.woke.atIfReached(seq);
                long seen = observer.seenAt(seq, timeoutNanos);
                if (i < warmup) continue;
                if (seen < 0) {
                    error = "the observer never saw store " + seq;
                    break;
                }
                if (woke < seen) early++;
                wake[n] = Math.max(0, woke - seen);
                device[n] = Math.max(0, seen - goAt);
                n++;
            }
        } finally {
            loop.stop = true;
            LockSupport.unpark(thread);
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) thread.interrupt();
            if (reactor != null) reactor.close();
        }
        return new Result(kind, park, iterations, n, Latency.of(wake, n), Latency.of(device, n), early, error);
    }

    /** Sleeps in the OS to 50 µs before the deadline, then spins to it. */
    static void sleepUntil(long deadline) {
        for (long left; (left = deadline - System.nanoTime()) > 50_000; ) LockSupport.parkNanos(left - 50_000);
        while (deadline - System.nanoTime() > 0) Thread.onSpinWait();
    }

    /** The waiter's side of the handshake (see the class comment). */
    private static final class Loop {
        private final GpuRig rig;
        private final Waiter kind;
        private final GpuReactor reactor;
        private final Thread harness;
        /** The request's armed port; written by the harness before {@link #requested}. */
        volatile CudaPort port;
        /** The sequence number asked for; the waiter takes {@link #port} after reading it. */
        volatile long requested;
        /** The sequence number the waiter is waiting for (its future registered, or about to call the driver). */
        volatile long armed;
        /** "ran again after s at t", for the harness (time plain, then sequence number release). */
        final Stamp woke = new Stamp(0);
        volatile boolean stop;
        /** Why the waiter stopped; read by the harness between its bounded parks. */
        volatile Throwable failure;

        Loop(GpuRig rig, Waiter kind, GpuReactor reactor, Thread harness) {
            this.rig = rig;
            this.kind = kind;
            this.reactor = reactor;
            this.harness = harness;
        }

        void run() {
            try {
                if (!kind.isReactor()) rig.driver().setCurrent(rig.primaryContext()); // a platform thread of our own
                long handled = 0;
                while (true) {
                    long seq;
                    while ((seq = requested) == handled) { // the port written before it is the request's
                        if (stop) return;
                        LockSupport.parkNanos(1_000_000);
                    }
                    CudaPort p = port;
                    MemorySegment s = rig.stream().segment();
                    CudaDriver cuda = rig.driver();
                    switch (kind) {
                        case REACTOR_HARDWARE, REACTOR_FALLBACK, REACTOR_JDK -> {
                            GpuFuture<Void> f = reactor.await(p.descriptor().orElseThrow(), p);
                            arm(seq);
                            f.join();
                        }
                        case STREAM_SYNCHRONIZE -> {
                            arm(seq);
                            cuda.check("cuStreamSynchronize", CudaRaw.cuStreamSynchronize(cuda, s));
                        }
                        case STREAM_QUERY -> {
                            arm(seq);
                            int rc;
                            while ((rc = CudaRaw.cuStreamQuery(cuda, s)) == CudaRaw.CUDA_ERROR_NOT_READY) Thread.onSpinWait();
                            cuda.check("cuStreamQuery", rc);
                        }
                    }
                    woke.publish(seq, System.nanoTime());
                    LockSupport.unpark(harness);
                    handled = seq;
                }
            } catch (Throwable t) {
                failure = t;
                LockSupport.unpark(harness);
            }
        }

        private void arm(long seq) {
            armed = seq;
            LockSupport.unpark(harness);
        }

        /** The harness parks (in 1 ms slices) until {@code condition} holds, the waiter failed, or the timeout. */
        boolean until(java.util.function.BooleanSupplier condition, long timeoutNanos) {
            long end = System.nanoTime() + timeoutNanos;
            while (!condition.getAsBoolean()) {
                if (failure != null || System.nanoTime() - end > 0) return false;
                LockSupport.parkNanos(1_000_000);
            }
            return true;
        }
    }
}
