package dev.gpureactor.backend;

import dev.gpureactor.core.ReactorException;

/**
 * What a vendor supplies for a device-mapped line: a table of driver calls. The ownership rules
 * (retain the domain first, free only after the streams settled, leak rather than free under a
 * pending store) live once, in {@link MappedPage}; a vendor implements only these calls.
 *
 * <p>Every method either succeeds or throws a coded {@link ReactorException} (the driver's status
 * as {@code Backend} with its error name, {@code ForeignStream}, {@code NativeUnavailable}). Stream
 * handles are raw driver handles as {@code long}; host and device addresses are {@code long}.
 */
public interface LineDriver {
    /**
     * The domain a line belongs to: a device and a retained reference to its primary context.
     *
     * @param device      the device ordinal
     * @param handle      the retained context handle (raw)
     * @param description for messages, e.g. "primary context 0x7f.. of CUDA device 0"
     */
    record Domain(int device, long handle, String description) {
        @Override
        public String toString() { return description; }
    }

    /**
     * "cuda", "hip": the first argument of the {@code Backend} errors.
     *
     * @return "cuda" or "hip"
     */
    String backend();

    /** {@return the library the calls go to} */
    String library();

    /**
     * Retains the domain of the calling thread's current device (its primary context).
     *
     * @return the retained domain; {@link #releaseDomain} gives it back
     */
    Domain retainDomain();

    /**
     * Releases what {@link #retainDomain} retained.
     *
     * @param domain the line's domain (a context or a device)
     */
    void releaseDomain(Domain domain);

    /**
     * Makes {@code domain} current on this thread for the calls that need one; returns a token for
     * {@link #exit}. Calls between enter and exit run on the same thread.
     *
     * @param domain the line's domain (a context or a device)
     * @return the token {@link #exit} takes
     */
    long enter(Domain domain);

    /**
     * Restores what {@link #enter} changed.
     *
     * @param domain the line's domain (a context or a device)
     * @param token the token
     */
    void exit(Domain domain, long token);

    /**
     * Allocates page-locked, device-mapped, cache-coherent host memory (inside {@link #enter}).
     *
     * @param bytes the size in bytes
     * @return the host address of the page
     */
    long allocPage(long bytes);

    /**
     * {@return the device address of host memory from {@link #allocPage} (inside {@link #enter})}
     *
     * @param host the host address
     */
    long devicePointer(long host);

    /**
     * Frees memory from {@link #allocPage} (inside {@link #enter}).
     *
     * @param host the host address
     */
    void freePage(long host);

    /**
     * Throws {@code ForeignStream} unless {@code stream} belongs to {@code domain}.
     *
     * @param domain the line's domain (a context or a device)
     * @param stream the stream
     */
    void checkStream(Domain domain, long stream);

    /**
     * {@return whether {@code stream} names a stream only through the current context (the null stream)}
     *
     * @param stream the stream
     */
    boolean implicitStream(long stream);

    /**
     * Queues the 64-bit store of {@code value} at {@code deviceAddress} behind the stream's work.
     *
     * @param stream the stream
     * @param deviceAddress the device address
     * @param value the value
     */
    void writeValue64(long stream, long deviceAddress, long value);

    /**
     * {@return the stream's raw status: 0 done, {@link #notReady()} pending, anything else a failure}
     *
     * @param stream the stream
     */
    int queryStatus(long stream);

    /** {@return the status meaning "still running" (CUDA_ERROR_NOT_READY, hipErrorNotReady)} */
    int notReady();

    /**
     * {@return the driver's blocking wait; returns its raw status}
     *
     * @param stream the stream
     */
    int synchronizeStatus(long stream);

    /**
     * {@return the driver's name for a status, e.g} "CUDA_ERROR_LAUNCH_FAILED".
     *
     * @param status the driver's status
     */
    String statusName(int status);

    /**
     * {@return the coded {@code Backend} error of a failed call, with the driver's error name and text}
     *
     * @param call the call's name, for the error
     * @param status the driver's status
     */
    ReactorException failure(String call, int status);

    /** {@return the names of the query and blocking-wait calls, for messages} */
    String queryCall();

    /** {@return the name of the blocking-wait call, for messages} */
    String synchronizeCall();
}
