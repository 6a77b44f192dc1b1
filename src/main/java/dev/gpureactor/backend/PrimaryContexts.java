package dev.gpureactor.backend;

/**
 * The primary-context calls of a vendor binding ({@code CudaDriver}, {@code HipRuntime}) that a line's
 * domain is made of ({@link BoundLineDriver#retainDomain}); each throws the driver's coded {@code Backend}
 * error when the call fails.
 */
public interface PrimaryContexts {
    /** {@return the calling thread's current device (CUDA: the device of its current context)} */
    int currentDevice();

    /**
     * Retains the device's primary context and returns its raw handle.
     *
     * @param device the device
     * @return the primary context's handle
     */
    long primaryContextRetain(int device);

    /**
     * Releases what {@link #primaryContextRetain} retained.
     *
     * @param device the device
     */
    void primaryContextRelease(int device);
}
