package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.DriverBinding;
import dev.gpureactor.backend.BackendReport;

/** The HIP entry of {@code gar probe} ({@link DriverBinding#probe}). */
public final class HipBackend {
    private HipBackend() {}

    /** {@return the probe of the HIP runtime named by {@code gar.hip.library}} */
    public static BackendReport probe() {
        return probe(HipRuntime.configuredLibrary());
    }

    /**
     * The probe of the HIP runtime in {@code library}.
     *
     * @param library the library's path or name
     * @return what the probe found
     */
    public static BackendReport probe(String library) {
        return DriverBinding.probe("hip", library, HipRuntime::load);
    }
}
