package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.DriverPort;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.WordPark;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.Slot;

/**
 * A {@link CompletionPort} over one CUDA stream and one word of a {@link MappedLine}: the {@link
 * DriverPort} body under the CUDA name.
 *
 * <ul>
 *   <li>{@link #query()}: {@code cuStreamQuery}, the error authority: {@code CUDA_SUCCESS} done,
 *       {@code CUDA_ERROR_NOT_READY} pending, anything else a coded {@code Backend} error with the
 *       names from {@code cuGetErrorName} / {@code cuGetErrorString} (for example
 *       {@code CUDA_ERROR_LAUNCH_FAILED}).
 *   <li>{@link #block()}: {@code cuStreamSynchronize} (it holds the calling thread, and a virtual
 *       thread's carrier, for the whole wait).
 *   <li>{@link #arm()}: {@link MappedLine#enqueueStore} of the target, once.
 *   <li>{@link #park(long)}: the {@link WordPark} given here (default: the line's options, a
 *       spin-then-park loop) on the word.
 * </ul>
 *
 * <p>On a device without stream memory operations (or from {@link #queryOnly}) the port runs in
 * query mode: see {@link DriverPort}.
 */
public final class CudaPort extends DriverPort<CuStream> {
    /** {@link MappedLine#port(dev.gpureactor.backend.DriverStream, Slot, long, WordPark)} of a CUDA line. */
    CudaPort(MappedLine<CuStream, CudaPort> line, CuStream stream, Slot slot, long target, WordPark park) {
        super(line, stream, slot, target, park);
    }

    private CudaPort(CudaDriver driver, CuStream stream) {
        super(new CudaLines(driver), stream, CudaDriver.QUERY_FUNCTIONS);
    }

    /**
     * {@return a port without a line: status by query, wait by {@code cuStreamSynchronize}, {@code arm} does
     * nothing (the query plan)} Works with a driver that cannot make lines. A null-stream handle is resolved
     * through the calling thread's current context.
     *
     * @param driver the driver
     * @param stream the stream
     */
    public static CudaPort queryOnly(CudaDriver driver, CuStream stream) {
        return new CudaPort(driver, stream);
    }
}
