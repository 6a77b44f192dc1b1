package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.DriverRig;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;

import java.util.Optional;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CUDA {@link DriverRig}: the stand-in driver or the real {@code libcuda.so.1} where one is found
 * (skipped with the reason otherwise). The calling thread gets the primary context of device 0 as its
 * current context, as a CUDA runtime user has.
 */
final class CudaRig extends DriverRig<CuStream> {
    static final String REAL_LIBRARY = "libcuda.so.1";
    private static volatile Optional<String> realUnavailable;

    final CudaDriver cuda;
    final int device;
    final long primary;

    private CudaRig(String kind, CudaDriver cuda, StandinHooks hooks) {
        super(kind, cuda, hooks);
        this.cuda = cuda;
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
        Optional<String> why = DriverRig.realUnavailable(REAL_LIBRARY, () -> {
            CudaDriver d = CudaDriver.load(REAL_LIBRARY);
            d.ensureInitialized();
            return d.deviceCount();
        });
        realUnavailable = why;
        return why;
    }

    /** A test may have made another context current. */
    @Override
    protected void beforeTeardown() { cuda.setCurrent(primary); }

    @Override
    protected void release() { cuda.primaryContextRelease(device); }
}
