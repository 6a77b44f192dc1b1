package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.BackendReport;
import dev.gpureactor.backend.DeviceReport;
import dev.gpureactor.core.ReactorException;

import java.util.ArrayList;
import java.util.List;

/** The CUDA entry of {@code gar probe}. */
public final class CudaBackend {
    private CudaBackend() {}

    /** Loads the configured driver, lists its devices and whether each can store into a line. */
    public static BackendReport probe() {
        return probe(CudaDriver.configuredLibrary());
    }

    public static BackendReport probe(String library) {
        CudaDriver driver;
        try {
            driver = CudaDriver.load(library);
        } catch (ReactorException e) {
            return new BackendReport("cuda", library, false, e.getMessage(), List.of());
        }
        List<DeviceReport> devices = new ArrayList<>();
        String why;
        try {
            driver.ensureInitialized();
            int version = driver.driverVersion();
            int count = driver.deviceCount();
            for (int i = 0; i < count; i++) {
                int dev = driver.device(i);
                String name = driver.deviceName(dev);
                StreamMemOps m;
                try {
                    m = StreamMemOps.read(driver, dev);
                } catch (ReactorException e) {
                    m = new StreamMemOps(false, -1, e.getMessage());
                }
                devices.add(new DeviceReport(i, name, m.usable(), m.detail()));
            }
            why = "driver " + version / 1000 + "." + version % 1000 / 10 + ", " + count + " device(s)";
        } catch (ReactorException e) {
            why = "the library loaded but the driver cannot run: " + e.getMessage();
        }
        List<String> lacking = CudaDriver.LINE_FUNCTIONS.stream().filter(driver.missing()::contains).toList();
        if (!lacking.isEmpty()) why += "; no lines (missing " + String.join(", ", lacking) + "): query plan only";
        return new BackendReport("cuda", library, true, why, devices);
    }
}
