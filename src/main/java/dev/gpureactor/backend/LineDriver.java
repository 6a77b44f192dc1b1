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

    /** "cuda", "hip": the first argument of the {@code Backend} errors. */
    String backend();

    /** The library the calls go to. */
    String library();

    /** Retains the domain of the calling thread's current device (its primary context). */
    Domain retainDomain();

    /** Releases what {@link #retainDomain} retained. */
    void releaseDomain(Domain domain);

    /**
     * Makes {@code domain} current on this thread for the calls that need one; returns a token for
     * {@link #exit}. Calls between enter and exit run on the same thread.
     */
    long enter(Domain domain);

    /** Restores what {@link #enter} changed. */
    void exit(Domain domain, long token);

    /** Allocates page-locked, device-mapped, cache-coherent host memory (inside {@link #enter}). */
    long allocPage(long bytes);

    /** The device address of host memory from {@link #allocPage} (inside {@link #enter}). */
    long devicePointer(long host);

    /** Frees memory from {@link #allocPage} (inside {@link #enter}). */
    void freePage(long host);

    /** Throws {@code ForeignStream} unless {@code stream} belongs to {@code domain}. */
    void checkStream(Domain domain, long stream);

    /** Whether {@code stream} names a stream only through the current context (the null stream). */
    boolean implicitStream(long stream);

    /** Queues the 64-bit store of {@code value} at {@code deviceAddress} behind the stream's work. */
    void writeValue64(long stream, long deviceAddress, long value);

    /** The stream's raw status: 0 done, {@link #notReady()} pending, anything else a failure. */
    int queryStatus(long stream);

    /** The status meaning "still running" (CUDA_ERROR_NOT_READY, hipErrorNotReady). */
    int notReady();

    /** The driver's blocking wait; returns its raw status. */
    int synchronizeStatus(long stream);

    /** The driver's name for a status, e.g. "CUDA_ERROR_LAUNCH_FAILED". */
    String statusName(int status);

    /** The coded {@code Backend} error of a failed call, with the driver's error name and text. */
    ReactorException failure(String call, int status);

    /** The names of the query and blocking-wait calls, for messages. */
    String queryCall();

    String synchronizeCall();
}
