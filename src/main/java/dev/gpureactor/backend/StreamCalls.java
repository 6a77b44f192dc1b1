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
    /** A new stream of the calling thread's current context (CUDA, non-blocking) or device (HIP). */
    S newStream();

    /** The driver's blocking wait; returns the raw status, so a failed stream is seen, not thrown. */
    int synchronizeStatus(S stream);

    void destroyStream(S stream);

    /** Queues {@code fn(userData)} on the stream ({@link HostFunction#stub()} for a Java body). */
    void launchHostFunction(S stream, MemorySegment fn, MemorySegment userData);

    /** Queues a device-side write of {@code bytes} bytes of {@code value} at {@code deviceAddress}. */
    void fillAsync(S stream, long deviceAddress, byte value, long bytes);

    /** Page-locked host memory mapped for the device (never write-combined); returns the host address. */
    long allocMapped(long bytes);

    /** The device address of memory from {@link #allocMapped}. */
    long mappedDevicePointer(long host);

    void freeMapped(long host);
}
