package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.BackendReport;
import dev.gpureactor.backend.DeviceReport;
import dev.gpureactor.core.ReactorException;

import java.util.ArrayList;
import java.util.List;

/** The HIP entry of {@code gar probe}. */
public final class HipBackend {
    private HipBackend() {}

    public static BackendReport probe() {
        return probe(HipRuntime.configuredLibrary());
    }

    public static BackendReport probe(String library) {
        HipRuntime hip;
        try {
            hip = HipRuntime.load(library);
        } catch (ReactorException e) {
            return new BackendReport("hip", library, false, e.getMessage(), List.of());
        }
        boolean writes = hip.missing().stream().noneMatch(HipRuntime.LINE_FUNCTIONS::contains);
        String memOps = writes
                ? HipRuntime.STORES
                : "missing " + String.join(", ", hip.missing().stream().filter(HipRuntime.LINE_FUNCTIONS::contains).toList());
        List<DeviceReport> devices = new ArrayList<>();
        String why;
        try {
            int count = hip.deviceCount();
            for (int i = 0; i < count; i++) {
                int dev = hip.device(i);
                devices.add(new DeviceReport(i, hip.deviceName(dev), writes, memOps));
            }
            why = "runtime " + hip.driverVersion() + ", " + count + " device(s)";
        } catch (ReactorException e) {
            why = noDevice(hip, e) ? "HIP runtime " + hip.versionText() + " found, no device"
                    : "the library loaded but the runtime cannot run: " + e.getMessage();
        }
        if (!writes) why += "; no lines: query plan only";
        return new BackendReport("hip", library, true, why, devices);
    }

    /** Whether {@code e} is the runtime's answer on a machine without an AMD GPU ({@code hipErrorNoDevice}). */
    private static boolean noDevice(HipRuntime hip, ReactorException e) {
        return e.code() == dev.gpureactor.core.ErrorCode.Backend && e.args().size() > 2
                && e.args().get(2).equals(Integer.toString(HipRuntime.hipErrorNoDevice));
    }
}
