package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.DriverRig;
import dev.gpureactor.backend.DriverRig.RealLibrary;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;

/**
 * The CUDA {@link DriverRig}: the stand-in driver or the real {@code libcuda.so.1} where one is found
 * (skipped with the reason otherwise). The calling thread gets the primary context of device 0 as its
 * current context, as a CUDA runtime user has.
 */
final class CudaRig extends DriverRig<CuStream> {
    static final RealLibrary REAL = new RealLibrary("libcuda.so.1", () -> {
        CudaDriver d = CudaDriver.load("libcuda.so.1");
        d.ensureInitialized();
        return d.deviceCount();
    });

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
        return DriverRig.open(kind, CudaRig::standin, CudaRig::real);
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
        REAL.assume();
        return new CudaRig("real", CudaDriver.load(REAL.library), null);
    }

    /** A test may have made another context current. */
    @Override
    protected void beforeTeardown() { cuda.setCurrent(primary); }

    @Override
    protected void release() { cuda.primaryContextRelease(device); }
}
