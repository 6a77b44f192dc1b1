package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.DriverBinding;
import dev.gpureactor.backend.BackendReport;

/** The HIP entry of {@code gar probe} ({@link DriverBinding#probe}). */
public final class HipBackend {
    private HipBackend() {}

    public static BackendReport probe() {
        return probe(HipRuntime.configuredLibrary());
    }

    public static BackendReport probe(String library) {
        return DriverBinding.probe("hip", library, HipRuntime::load);
    }
}
