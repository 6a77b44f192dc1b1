package dev.gpureactor.interop;

import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.cuda.CuStream;
import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.backend.cuda.CudaPort;
import dev.gpureactor.core.Slot;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A binding a user already has: JavaCPP's CUDA presets ({@code org.bytedeco:cuda}) create the stream
 * and queue the work, and the library only waits. The runtime API ({@code cudart}) makes device 0's
 * primary context current and creates a non-blocking stream; its raw pointer becomes a {@link CuStream}
 * in one line ({@code CuStream.ofRaw(stream.address())}); a {@code cudaMemsetAsync} fills mapped host
 * memory through its device address; the line's store goes behind it; a virtual thread of the reactor
 * joins the {@link GpuFuture}, whose readback sees every byte the memset wrote.
 *
 * <p>Compiled in every build (the presets' classes are a test dependency); it runs where a CUDA driver
 * and the presets' natives are at hand, and is skipped with the reason elsewhere: without
 * {@code libcuda.so.1}, or without the natives ({@code mvn -Pjavacpp-cuda}, docs/CUDA.md).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JavaCppStreamTest {
    private static final int BYTES = 1 << 20;
    private static final int FILL = 0x5A;

    @Test
    void aStreamMadeByJavaCppIsAwaitedThroughTheReactor() throws Exception {
        CudaDriver cuda = driverOrSkip();
        nativesOrSkip();
        check(cudart.cudaSetDevice(0), "cudaSetDevice(0)");
        check(cudart.cudaFree(null), "cudaFree(NULL)"); // the runtime creates device 0's primary context, current on this thread

        CUstream_st s = new CUstream_st();
        check(cudart.cudaStreamCreateWithFlags(s, cudart.cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
        CuStream stream = CuStream.ofRaw(s.address()); // the one line: JavaCPP's cudaStream_t is the driver's CUstream

        Pointer host = new Pointer(), device = new Pointer();
        check(cudart.cudaHostAlloc(host, BYTES, cudart.cudaHostAllocMapped), "cudaHostAlloc");
        check(cudart.cudaHostGetDevicePointer(device, host, 0), "cudaHostGetDevicePointer");
        BytePointer bytes = new BytePointer(host).capacity(BYTES);
        try (GpuReactor reactor = GpuReactor.open()) {
            var line = MappedLine.create(cuda); // the primary context the runtime made current
            try {
                check(cudart.cudaMemsetAsync(device, FILL, BYTES, s), "cudaMemsetAsync");
                CudaPort port = line.port(stream, Slot.of(0), 1);
                port.arm(); // cuStreamWriteValue64_v2 right behind the memset
                AtomicInteger readbacks = new AtomicInteger();
                GpuFuture<Integer> filled = reactor.await(port.descriptor().orElseThrow(), port, () -> {
                    readbacks.incrementAndGet();
                    int n = 0;
                    for (int i = 0; i < BYTES; i++) if ((bytes.get(i) & 0xFF) == FILL) n++;
                    return n;
                });
                int[] seen = {-1};
                Thread joiner = reactor.startVirtualThread(() -> seen[0] = filled.join());
                assertTrue(joiner.join(Duration.ofSeconds(60)), "the reactor's virtual thread was woken");
                assertEquals(BYTES, seen[0], "after the wait every byte of the memset is visible on the host");
                assertEquals(1, readbacks.get());
                assertEquals(1, line.line().word(Slot.of(0)), "the store landed");
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!line.retire(stream) && System.nanoTime() < until) Thread.sleep(1);
            } finally {
                line.close();
            }
            assertTrue(line.isFreed(), "the store settled, so the line's page was freed");
        } finally {
            cudart.cudaStreamDestroy(s);
            cudart.cudaFreeHost(host);
        }
    }

    /** The real driver, or a skip that says why there is none. */
    private static CudaDriver driverOrSkip() {
        CudaDriver cuda = null;
        String why = "";
        try {
            cuda = CudaDriver.load("libcuda.so.1");
            cuda.ensureInitialized();
            if (cuda.deviceCount() < 1) why = "libcuda.so.1 reports no device";
        } catch (RuntimeException | LinkageError e) {
            why = "no CUDA driver: " + e.getMessage();
        }
        assumeTrue(why.isEmpty(), "skipped: " + why + " (this test runs on a machine with an NVIDIA GPU; the same hand-over of a raw stream"
                + " through CuStream.ofRaw runs on the stand-in driver in CudaFaultTest)");
        return cuda;
    }

    /** JavaCPP's natives for the presets (jnicudart, and the CUDA runtime it links), or a skip that says how to get them. */
    private static void nativesOrSkip() {
        String why = "";
        try {
            Loader.load(cudart.class);
        } catch (Throwable e) { // UnsatisfiedLinkError, or the class's static initializer failing on it
            why = e.toString();
        }
        assumeTrue(why.isEmpty(), "skipped: JavaCPP's CUDA natives did not load (" + why + "); run with -Pjavacpp-cuda, which adds"
                + " org.bytedeco:cuda's linux-x86_64 natives and the CUDA runtime they link (docs/CUDA.md)");
    }

    private static void check(int status, String call) {
        if (status != 0) {
            throw new AssertionError(call + " failed: " + status + " (" + cudart.cudaGetErrorString(status).getString() + ")");
        }
    }
}
