package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.HostFns;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The stand-in HIP runtime (always) or the real libamdhip64.so where one is found; device 0 current. */
@SuppressWarnings("restricted")
final class HipRig implements AutoCloseable {
    static final String REAL_LIBRARY = "libamdhip64.so";
    private static volatile Optional<String> realUnavailable;

    final String kind;
    final HipRuntime hip;
    final StandinHooks hooks;
    private final List<Long> streams = new ArrayList<>();
    private final List<Long> pages = new ArrayList<>();
    private final List<HostFns.Gate> gates = new ArrayList<>();

    private HipRig(String kind, HipRuntime hip, StandinHooks hooks) {
        this.kind = kind;
        this.hip = hip;
        this.hooks = hooks;
        if (hooks != null) hooks.reset();
        hip.setDevice(0);
    }

    static HipRig open(String kind) {
        return switch (kind) {
            case "standin" -> standin();
            case "real" -> real();
            default -> throw new IllegalArgumentException(kind);
        };
    }

    static HipRig standin() {
        String lib = Standin.library(Standin.HIP);
        return new HipRig("standin", HipRuntime.load(lib), new StandinHooks(lib));
    }

    /**
     * The real runtime with a device; a JUnit assumption (with the reason) where there is none. Why a
     * skip and not a failure: no AMD GPU is on any machine this project builds on. The same test body runs
     * on the stand-in runtime in every build; the real runtime without a device is tested, never skipped
     * in CI, by HipRealRuntimeTest.
     */
    static HipRig real() {
        Optional<String> why = realUnavailable();
        assumeTrue(why.isEmpty(), why.orElse(""));
        return new HipRig("real", HipRuntime.load(REAL_LIBRARY), null);
    }

    static Optional<String> realUnavailable() {
        Optional<String> known = realUnavailable;
        if (known != null) return known;
        Optional<String> why;
        try {
            HipRuntime h = HipRuntime.load(REAL_LIBRARY);
            why = h.deviceCount() > 0 ? Optional.empty() : Optional.of("skipped: libamdhip64.so found but it reports no device");
        } catch (ReactorException e) {
            why = Optional.of(e.code() == ErrorCode.NativeUnavailable
                    ? "skipped: no libamdhip64.so (" + e.getMessage() + ")"
                    : "skipped: libamdhip64.so found but the runtime cannot run (" + e.getMessage() + ")");
        }
        realUnavailable = why;
        return why;
    }

    boolean standinOnly() { return hooks != null; }

    HipStream stream() {
        long s = hip.streamCreate();
        streams.add(s);
        return HipStream.ofRaw(s);
    }

    HostFns.Gate gate(HipStream s) {
        HostFns.Gate g = new HostFns.Gate();
        gates.add(g);
        hip.check("hipLaunchHostFunc", hip.hipLaunchHostFunc(s.segment(), HostFns.STUB, g.userData()));
        return g;
    }

    void hostFn(HipStream s, Runnable body) {
        hip.check("hipLaunchHostFunc", hip.hipLaunchHostFunc(s.segment(), HostFns.STUB, HostFns.register(body)));
    }

    long mappedPage(long bytes) {
        long host = hip.hostMalloc(bytes, HipRuntime.hipHostMallocMapped | HipRuntime.hipHostMallocCoherent);
        pages.add(host);
        MemorySegment.ofAddress(host).reinterpret(bytes).fill((byte) 0);
        return host;
    }

    void fill(HipStream s, long deviceAddress, byte value, long n) {
        hip.check("hipMemsetD8Async", hip.hipMemsetD8Async(MemorySegment.ofAddress(deviceAddress), value, n, s.segment()));
    }

    @Override
    public void close() {
        if (hooks != null) hooks.releaseHangs();
        gates.forEach(HostFns.Gate::open);
        for (long s : streams) {
            hip.hipStreamSynchronize(MemorySegment.ofAddress(s));
            hip.hipStreamDestroy(MemorySegment.ofAddress(s));
        }
        for (long p : pages) hip.hipHostFree(MemorySegment.ofAddress(p));
    }

    @Override
    public String toString() { return kind; }
}
