package dev.gpureactor.backend;

import java.util.Objects;

/**
 * One device, as a backend's probe found it.
 *
 * @param streamMemOps whether the device stores into a line; without them waits use the query plan
 * @param memOps       how that was decided (which attribute answered, with its value)
 * @param ordinal the device ordinal
 * @param name the name
 */
public record DeviceReport(int ordinal, String name, boolean streamMemOps, String memOps) {
    /** Checks the components: the name and the memory-ops detail are non-null. */
    public DeviceReport {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(memOps, "memOps");
    }
}
