package dev.gpureactor.bench.gpu;

import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.backend.cuda.CuStream;
import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.backend.cuda.CudaKernels;
import dev.gpureactor.backend.cuda.CudaPort;

import java.util.function.Consumer;

/**
 * Step 4 on a device that cannot store into a line (no stream memory operations, no mapped host
 * memory, as under a sandboxing GPU proxy): the round trip of the query plan. The calling thread
 * launches an empty kernel ({@code gar_spin_ns(0)}), queries the stream until it is done
 * ({@link CudaPort#queryOnly}, {@code cuStreamQuery}), and launches the next one; RTT/2 is half the
 * time between two launches. It needs only kernels and {@code cuStreamQuery}, which every device has.
 *
 * <p>The calling thread gets device 0's primary context as its current context for the run and
 * gives back what it had.
 */
public final class QueryRoundTrip {
    /** The variant's name in the report. */
    public static final String VARIANT = "query-plan";

    private QueryRoundTrip() {}

    /** {@code warmup} + {@code iterations} round trips; one that outlasts {@code timeoutNanos} stops the run. */
    public static RoundTrip.Result run(CudaDriver cuda, int warmup, int iterations, long timeoutNanos, Consumer<String> progress) {
        cuda.ensureInitialized();
        int device = cuda.device(0);
        long previous = cuda.currentContext();
        long primary = cuda.primaryContextRetain(device);
        try {
            cuda.setCurrent(primary);
            CuStream stream = cuda.newStream();
            try (CudaKernels kernels = CudaKernels.load(cuda)) {
                return measure(cuda, kernels, stream, warmup, iterations, timeoutNanos, progress);
            } finally {
                // A stream stopped by the timeout may still run its kernel: synchronize before destroying it.
                CudaRaw.cuStreamSynchronize(cuda, stream.segment());
                cuda.destroyStream(stream);
            }
        } finally {
            cuda.setCurrent(previous);
            cuda.primaryContextRelease(device);
        }
    }

    private static RoundTrip.Result measure(CudaDriver cuda, CudaKernels kernels, CuStream stream, int warmup, int iterations,
                                            long timeoutNanos, Consumer<String> progress) {
        CudaPort port = CudaPort.queryOnly(cuda, stream);
        int total = warmup + iterations + 1; // n + 1 stamps make n round trips
        long[] stamps = new long[total];
        String error = "";
        int done = 0;
        progress.accept("rtt: " + VARIANT + " ...");
        while (done < total) {
            stamps[done] = System.nanoTime();
            kernels.spin(stream, 0);
            long end = stamps[done] + timeoutNanos;
            boolean finished;
            while (!(finished = port.query()) && System.nanoTime() - end < 0) Thread.onSpinWait();
            if (!finished) {
                error = "timed out at round trip " + done + ": the stream did not finish an empty kernel";
                break;
            }
            done++;
        }
        int measured = Math.max(0, done - 1 - warmup);
        long[] half = new long[measured];
        for (int k = 0; k < measured; k++) half[k] = (stamps[warmup + k + 1] - stamps[warmup + k]) / 2;
        RoundTrip.Result r = new RoundTrip.Result(VARIANT, "cuStreamQuery poll on a platform thread", iterations, measured,
                Latency.of(half, measured), error);
        progress.accept("rtt: " + VARIANT + ": " + measured + "/" + iterations + " round trips, RTT/2 p50 " + r.halfRtt().p50()
                + " ns" + (error.isEmpty() ? "" : ", " + error));
        return r;
    }
}
