package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.DriverStream;

import java.lang.foreign.MemorySegment;

/**
 * A raw {@code hipStream_t} handle; 0 is the null stream of the calling thread's current device.
 * The handle must be a live stream (the runtime dereferences it), and a stream that was given a
 * store must stay alive until the line is closed or has {@linkplain dev.gpureactor.backend.MappedLine#retire retired} it.
 *
 * @param handle the handle
 */
public record HipStream(long handle) implements DriverStream {
    public static final HipStream NULL = new HipStream(0);

    /**
     * {@return the stream of a raw handle}
     *
     * @param handle the {@code hipStream_t}, 0 for the null stream
     */
    public static HipStream ofRaw(long handle) {
        return handle == 0 ? NULL : new HipStream(handle);
    }

    /**
     * {@return the stream of a handle as a segment}
     *
     * @param stream the {@code hipStream_t}
     */
    public static HipStream of(MemorySegment stream) {
        return ofRaw(stream.address());
    }

    /** {@return whether this is the null stream} */
    public boolean isNull() { return handle == 0; }

    @Override
    public String toString() { return "hipStream_t 0x" + Long.toHexString(handle); }
}
