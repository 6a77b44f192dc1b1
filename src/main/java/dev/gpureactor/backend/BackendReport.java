package dev.gpureactor.backend;

import java.util.List;
import java.util.Objects;

/**
 * What one GPU backend's probe found: whether its library loaded, why (or why not), its devices, and
 * whether each device can store into a line. Each backend makes its own ({@code CudaBackend.probe()},
 * {@code HipBackend.probe()}, {@code MetalBackend.probe()}); {@code gar probe} lists them. Probing loads
 * the vendor library through FFM and asks the driver; it never runs work on a device.
 *
 * @param backend "cuda", "hip" or "metal"
 * @param library the library path or name it tried (from {@code gar.cuda.library} / {@code gar.hip.library})
 * @param found   whether the library loaded
 * @param why     why not (the coded message), or what was found (driver version, caveats)
 * @param devices the devices, empty when not found or none
 */
public record BackendReport(String backend, String library, boolean found, String why, List<DeviceReport> devices) {
    /** Checks the components: the backend, library and reason are non-null; the devices are copied. */
    public BackendReport {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(library, "library");
        Objects.requireNonNull(why, "why");
        devices = List.copyOf(devices);
    }

    /** {@return one line per backend and per device, as {@code gar probe} prints it} */
    public String render() {
        StringBuilder out = new StringBuilder();
        out.append(backend).append(": ").append(found ? "found" : "not found").append(" (").append(library).append("): ").append(why);
        for (DeviceReport d : devices) {
            out.append("\n  device ").append(d.ordinal()).append(": ").append(d.name())
                    .append("; stream memory ops ").append(d.streamMemOps() ? "usable" : "NOT usable (query plan)")
                    .append(" [").append(d.memOps()).append(']');
        }
        return out.toString();
    }
}
