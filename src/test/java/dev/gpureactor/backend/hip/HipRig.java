package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.DriverRig;
import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;

import java.util.Optional;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The HIP {@link DriverRig}: the stand-in runtime or the real libamdhip64.so where one is found; device 0 current. */
final class HipRig extends DriverRig<HipStream> {
    static final String REAL_LIBRARY = "libamdhip64.so";
    private static volatile Optional<String> realUnavailable;

    final HipRuntime hip;

    private HipRig(String kind, HipRuntime hip, StandinHooks hooks) {
        super(kind, hip, hooks);
        this.hip = hip;
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
        Optional<String> why = DriverRig.realUnavailable(REAL_LIBRARY, () -> HipRuntime.load(REAL_LIBRARY).deviceCount());
        realUnavailable = why;
        return why;
    }
}
