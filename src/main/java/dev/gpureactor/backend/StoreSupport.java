package dev.gpureactor.backend;

import java.util.Objects;

/**
 * Whether a device stores into a {@link MappedLine} (the vendor's answer, read once when the line is
 * made). A line on a device that cannot gets the coded warning {@code NoStreamMemOps}, refuses
 * stores, and its ports run the query plan.
 *
 * @param usable whether the device takes the stream-ordered 64-bit store
 * @param detail what said so, for messages and {@code gar probe}
 */
public record StoreSupport(boolean usable, String detail) {
    /** Checks the components: the detail is non-null. */
    public StoreSupport {
        Objects.requireNonNull(detail, "detail");
    }
}
