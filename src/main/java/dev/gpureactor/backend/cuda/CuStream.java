package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.backend.DriverStream;

import java.lang.foreign.MemorySegment;

/**
 * A raw {@code CUstream} handle. Build one from a handle any other binding created: JCuda, JavaCPP's
 * CUDA presets, your own FFM code (see {@code docs/CUDA.md}).
 *
 * <p><b>Contract.</b> The handle must be a live stream of a live context, or 0 / {@code
 * CU_STREAM_LEGACY} (1): the NULL stream of the calling thread's current context. {@code
 * CU_STREAM_PER_THREAD} (2) is refused for stores ({@code InvalidArgument}): it names a different
 * stream on every thread, so no other thread could wait for it. The driver dereferences it, so a bogus handle faults inside the driver,
 * not in Java. A stream that was given a store must stay alive until the line is closed (or the line
 * has {@linkplain dev.gpureactor.backend.MappedLine#retire retired} it).
 *
 * @param handle the {@code CUstream} pointer value
 */
public record CuStream(long handle) implements DriverStream {
    /** The NULL stream of the current context: handle 0. */
    public static final CuStream NULL = new CuStream(0);

    /** {@return a stream from a raw {@code CUstream} pointer value (see the contract above)} */
    public static CuStream ofRaw(long handle) {
        return handle == 0 ? NULL : new CuStream(handle);
    }

    /**
     * {@return a stream from a {@code CUstream} pointer segment, e.g} one FFM code received from {@code
     * cuStreamCreate}.
     *
     * @param stream the stream
     */
    public static CuStream of(MemorySegment stream) {
        return ofRaw(stream.address());
    }

    /** {@return whether the handle names a stream only through the current context (0, legacy, per-thread)} */
    public boolean isImplicit() {
        return handle == 0 || handle == CudaRaw.CU_STREAM_LEGACY || handle == CudaRaw.CU_STREAM_PER_THREAD;
    }

    @Override
    public String toString() {
        return "CUstream 0x" + Long.toHexString(handle);
    }
}
