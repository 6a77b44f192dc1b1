package dev.gpureactor.backend.metal;

import dev.gpureactor.backend.BackendReport;
import dev.gpureactor.backend.DeviceReport;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;
import java.util.List;

/** The Metal entry of {@code gar probe}. */
public final class MetalBackend {
    private MetalBackend() {}

    /** {@return the probe of Metal on this host (not found where the framework does not load)} */
    public static BackendReport probe() {
        MetalRuntime rt;
        try {
            rt = MetalRuntime.load();
        } catch (ReactorException e) {
            return new BackendReport("metal", MetalRuntime.METAL_LIBRARY, false, e.getMessage(), List.of());
        }
        MemorySegment device = rt.systemDefaultDevice();
        if (device.address() == 0) {
            return new BackendReport("metal", MetalRuntime.METAL_LIBRARY, true, "no Metal device", List.of());
        }
        return new BackendReport("metal", MetalRuntime.METAL_LIBRARY, true, "written, not run: never executed on a Mac",
                List.of(new DeviceReport(0, "system default device", false, "MTLSharedEvent port (no line stores)")));
    }
}
