package dev.gpureactor.backend;

import java.lang.foreign.MemorySegment;

/**
 * The stream calls every vendor binding has beside a line's store, for code that drives streams itself
 * (the demo device, the GPU tests): make, wait for and destroy a stream, queue a host function or a
 * device-side byte fill on it, and mapped host memory for payloads the device writes. {@code CudaDriver}
 * and {@code HipRuntime} implement it over their raw calls; every method but {@link #synchronizeStatus}
 * throws the driver's coded {@code Backend} error when the call fails.
 *
 * @param <S> the vendor's stream handle
 */
public interface StreamCalls<S extends DriverStream> {
    /** {@return a new stream of the calling thread's current context (CUDA, non-blocking) or device (HIP)} */
    S newStream();

    /**
     * {@return the driver's blocking wait; returns the raw status, so a failed stream is seen, not thrown}
     *
     * @param stream the stream
     */
    int synchronizeStatus(S stream);

    /**
     * Destroys a stream made by {@link #newStream}.
     *
     * @param stream the stream
     */
    void destroyStream(S stream);

    /**
     * Queues {@code fn(userData)} on the stream: a host function, which the driver runs in stream order on a
     * thread of its own (for a Java body, an FFM upcall stub that lives until no stream can still call it).
     *
     * @param stream the stream
     * @param fn the host function
     * @param userData the host function's argument
     */
    void launchHostFunction(S stream, MemorySegment fn, MemorySegment userData);

    /**
     * Queues a device-side write of {@code bytes} bytes of {@code value} at {@code deviceAddress}.
     *
     * @param stream the stream
     * @param deviceAddress the device address
     * @param value the value
     * @param bytes the size in bytes
     */
    void fillAsync(S stream, long deviceAddress, byte value, long bytes);

    /**
     * Page-locked host memory mapped for the device (never write-combined); returns the host address.
     *
     * @param bytes the size in bytes
     * @return the host address
     */
    long allocMapped(long bytes);

    /**
     * {@return the device address of memory from {@link #allocMapped}}
     *
     * @param host the host address
     */
    long mappedDevicePointer(long host);

    /**
     * Frees memory from {@link #allocMapped}.
     *
     * @param host the host address
     */
    void freeMapped(long host);
}
