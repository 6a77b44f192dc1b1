package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.HostFns;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A driver to test against: the stand-in (always; it is what counts) or the real {@code
 * libcuda.so.1} where one is found (skipped with the reason otherwise). The calling thread gets the
 * primary context of device 0 as its current context, as a CUDA runtime user has.
 */
@SuppressWarnings("restricted")
final class CudaRig implements AutoCloseable {
    static final String REAL_LIBRARY = "libcuda.so.1";
    private static volatile Optional<String> realUnavailable;

    final String kind;
    final CudaDriver cuda;
    final StandinHooks hooks; // null on the real driver
    final int device;
    final long primary;
    private final List<Long> streams = new ArrayList<>();
    private final List<Long> pages = new ArrayList<>();
    private final List<HostFns.Gate> gates = new ArrayList<>();

    private CudaRig(String kind, CudaDriver cuda, StandinHooks hooks) {
        this.kind = kind;
        this.cuda = cuda;
        this.hooks = hooks;
        if (hooks != null) hooks.reset();
        cuda.ensureInitialized();
        device = cuda.device(0);
        primary = cuda.primaryContextRetain(device);
        cuda.setCurrent(primary);
    }

    static CudaRig open(String kind) {
        return switch (kind) {
            case "standin" -> standin();
            case "real" -> real();
            default -> throw new IllegalArgumentException(kind);
        };
    }

    static CudaRig standin() {
        String lib = Standin.library(Standin.CUDA);
        return new CudaRig("standin", CudaDriver.load(lib), new StandinHooks(lib));
    }

    /**
     * The real driver; a JUnit assumption (with the reason) where there is none. Why a skip and not a
     * failure: no machine this project builds on has libcuda.so.1. The same test body runs on the
     * stand-in driver in every build (each test is parameterized over "standin" and "real"), and on the
     * GPU machine scripts/gpu-check.sh runs these classes against the real driver and fails if any skips.
     */
    static CudaRig real() {
        Optional<String> why = realUnavailable();
        assumeTrue(why.isEmpty(), why.orElse(""));
        return new CudaRig("real", CudaDriver.load(REAL_LIBRARY), null);
    }

    static Optional<String> realUnavailable() {
        Optional<String> known = realUnavailable;
        if (known != null) return known;
        Optional<String> why;
        try {
            CudaDriver d = CudaDriver.load(REAL_LIBRARY);
            d.ensureInitialized();
            why = d.deviceCount() > 0 ? Optional.empty() : Optional.of("skipped: libcuda.so.1 found but it reports no device");
        } catch (ReactorException e) {
            why = Optional.of(e.code() == dev.gpureactor.core.ErrorCode.NativeUnavailable
                    ? "skipped: no libcuda.so.1 (" + e.getMessage() + ")"
                    : "skipped: libcuda.so.1 found but the driver cannot run (" + e.getMessage() + ")");
        }
        realUnavailable = why;
        return why;
    }

    boolean standinOnly() { return hooks != null; }

    /** A new non-blocking stream of the primary context, destroyed on close. */
    CuStream stream() {
        long s = cuda.streamCreate(CudaDriver.CU_STREAM_NON_BLOCKING);
        streams.add(s);
        return CuStream.ofRaw(s);
    }

    /** A "kernel" that holds the stream until the gate opens (a host function; real and stand-in). */
    HostFns.Gate gate(CuStream s) {
        HostFns.Gate g = new HostFns.Gate();
        gates.add(g);
        cuda.check("cuLaunchHostFunc", cuda.cuLaunchHostFunc(s.segment(), HostFns.STUB, g.userData()));
        return g;
    }

    /** Runs {@code body} on the driver's host-function thread, in stream order. */
    void hostFn(CuStream s, Runnable body) {
        cuda.check("cuLaunchHostFunc", cuda.cuLaunchHostFunc(s.segment(), HostFns.STUB, HostFns.register(body)));
    }

    /** Mapped host memory for a payload the device writes; returns the host address. Freed on close. */
    long mappedPage(long bytes) {
        long host = cuda.memHostAlloc(bytes, CudaDriver.CU_MEMHOSTALLOC_DEVICEMAP | CudaDriver.CU_MEMHOSTALLOC_PORTABLE);
        pages.add(host);
        MemorySegment.ofAddress(host).reinterpret(bytes).fill((byte) 0);
        return host;
    }

    /** A device-side write of {@code n} bytes of {@code value} ({@code cuMemsetD8Async}), in stream order. */
    void fill(CuStream s, long deviceAddress, byte value, long n) {
        cuda.check("cuMemsetD8Async", cuda.cuMemsetD8Async(deviceAddress, value, n, s.segment()));
    }

    @Override
    public void close() {
        if (hooks != null) hooks.releaseHangs();
        gates.forEach(HostFns.Gate::open);
        cuda.setCurrent(primary);
        for (long s : streams) {
            cuda.cuStreamSynchronize(MemorySegment.ofAddress(s)); // a failed stream reports its error: ignored here
            cuda.cuStreamDestroy_v2(MemorySegment.ofAddress(s));
        }
        for (long p : pages) cuda.cuMemFreeHost(MemorySegment.ofAddress(p));
        cuda.primaryContextRelease(device);
    }

    @Override
    public String toString() { return kind; }
}
