package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.DriverBinding;
import dev.gpureactor.backend.BackendReport;

/** The CUDA entry of {@code gar probe} ({@link DriverBinding#probe}). */
public final class CudaBackend {
    private CudaBackend() {}

    /**
     * Loads the configured driver, lists its devices and whether each can store into a line.
     *
     * @return what the probe found
     */
    public static BackendReport probe() {
        return probe(CudaDriver.configuredLibrary());
    }

    /**
     * The probe of the CUDA driver in {@code library}.
     *
     * @param library the library's path or name
     * @return what the probe found
     */
    public static BackendReport probe(String library) {
        return DriverBinding.probe("cuda", library, CudaDriver::load);
    }
}
