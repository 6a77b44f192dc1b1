package dev.gpureactor.backend;

import java.lang.foreign.MemorySegment;

/**
 * A raw driver stream handle ({@code CUstream}, {@code hipStream_t}) as a value: what a {@link
 * MappedLine} stores behind and a {@link DriverPort} queries. Each vendor has its own record, so a
 * line of one vendor takes only that vendor's streams.
 */
public interface DriverStream {
    /**
     * {@return the raw pointer value of the handle; 0 is the null stream of the calling thread's current context
     * or device}
     */
    long handle();

    /** {@return the handle as a pointer segment, for FFM calls} */
    default MemorySegment segment() {
        return MemorySegment.ofAddress(handle());
    }
}
