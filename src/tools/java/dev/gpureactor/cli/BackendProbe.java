package dev.gpureactor.cli;

import dev.gpureactor.backend.BackendReport;
import dev.gpureactor.backend.cuda.CudaBackend;
import dev.gpureactor.backend.hip.HipBackend;
import dev.gpureactor.backend.metal.MetalBackend;

import java.util.List;

/**
 * What {@code gar probe} lists for the GPU backends: each backend's own probe, in a fixed order. The
 * aggregation lives here, above the backends, so that {@code backend} never names its sub-packages
 * (ArchitectureTest: no package cycle).
 */
final class BackendProbe {
    private BackendProbe() {}

    /** CUDA, HIP and Metal, in that order. */
    static List<BackendReport> report() {
        return List.of(CudaBackend.probe(), HipBackend.probe(), MetalBackend.probe());
    }
}
