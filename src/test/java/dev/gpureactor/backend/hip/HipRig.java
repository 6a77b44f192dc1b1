package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.DriverRig;
import dev.gpureactor.backend.DriverRig.RealLibrary;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;

/** The HIP {@link DriverRig}: the stand-in runtime or the real libamdhip64.so where one is found; device 0 current. */
final class HipRig extends DriverRig<HipStream> {
    static final RealLibrary REAL = new RealLibrary("libamdhip64.so", () -> HipRuntime.load("libamdhip64.so").deviceCount());

    final HipRuntime hip;

    private HipRig(String kind, HipRuntime hip, StandinHooks hooks) {
        super(kind, hip, hooks);
        this.hip = hip;
        hip.setDevice(0);
    }

    static HipRig open(String kind) {
        return DriverRig.open(kind, HipRig::standin, HipRig::real);
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
        REAL.assume();
        return new HipRig("real", HipRuntime.load(REAL.library), null);
    }
}
