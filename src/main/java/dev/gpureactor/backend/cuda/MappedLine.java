package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.LineOptions;
import dev.gpureactor.backend.MappedPage;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A completion line that CUDA streams store sequence numbers into, behind their work.
 *
 * <ul>
 *   <li>The line lives in {@code cuMemHostAlloc(CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE)}
 *       memory: a whole page, never {@code WRITECOMBINED} (write-combined memory bypasses the CPU
 *       caches, so a monitor on the line would never see the device's store). Its device address
 *       comes from {@code cuMemHostGetDevicePointer_v2}.
 *   <li>It belongs to the <b>primary context</b> of the device of the calling thread's current
 *       context ({@code cuCtxGetDevice}), which it retains ({@code cuDevicePrimaryCtxRetain}) from
 *       before the page is allocated until after it is freed.
 *   <li>Stores come from {@code cuStreamWriteValue64_v2} with default flags, which order the store
 *       after the stream's earlier work (a fence like {@code __threadfence_system()}). Streams of
 *       another context are refused with {@code ForeignStream} ({@code cuStreamGetCtx}).
 *   <li>{@link #close()} frees the page only after every stream that was given a store settled; if
 *       one cannot settle it leaks the page (coded warning {@code LineLeaked}), never freeing under a
 *       pending store. See {@link MappedPage}.
 *   <li>The device's stream-memory-ops attributes are read at creation ({@link StreamMemOps}); a
 *       device without them still gets a line, with the coded warning {@code NoStreamMemOps}, and its
 *       ports run the query plan.
 * </ul>
 *
 * <p>Needs a current context on the creating thread (for example the primary context made current
 * with {@code cuCtxSetCurrent}, as the CUDA runtime does).
 */
public final class MappedLine implements AutoCloseable {
    /**
     * Every entry point a line needs. A driver without one of them cannot make lines ({@link
     * #create} fails with {@code NativeUnavailable} naming it), though {@link CudaPort#queryOnly}
     * still works.
     */
    public static final List<String> REQUIRED = List.of(
            "cuInit", "cuGetErrorName", "cuGetErrorString", "cuCtxGetDevice", "cuDevicePrimaryCtxRetain",
            "cuDevicePrimaryCtxRelease_v2", "cuCtxPushCurrent_v2", "cuCtxPopCurrent_v2", "cuDeviceGetAttribute",
            "cuMemHostAlloc", "cuMemHostGetDevicePointer_v2", "cuMemFreeHost", "cuStreamGetCtx", "cuStreamQuery",
            "cuStreamSynchronize", "cuStreamWriteValue64_v2");

    private static final AtomicLong IDS = new AtomicLong();

    private final CudaDriver driver;
    private final MappedPage page;
    private final StreamMemOps memOps;

    private MappedLine(CudaDriver driver, MappedPage page, StreamMemOps memOps) {
        this.driver = driver;
        this.page = page;
        this.memOps = memOps;
    }

    /** A line from the driver named by {@code gar.cuda.library}, with default options. */
    public static MappedLine create() {
        return create(CudaDriver.load(), LineOptions.defaults());
    }

    public static MappedLine create(CudaDriver driver) {
        return create(driver, LineOptions.defaults());
    }

    /**
     * A fresh line reading all 0, owned by the primary context of the calling thread's device.
     *
     * @throws ReactorException {@code NativeUnavailable} naming a missing entry point (such as
     *     {@code cuStreamWriteValue64_v2}); {@code Backend} with the driver's error name when a call
     *     fails ({@code CUDA_ERROR_INVALID_CONTEXT} without a current context,
     *     {@code CUDA_ERROR_OUT_OF_MEMORY}, ...)
     */
    public static MappedLine create(CudaDriver driver, LineOptions options) {
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(options, "options");
        driver.require(REQUIRED);
        driver.ensureInitialized();
        MappedPage page = MappedPage.create(new CudaLines(driver), "cuda-line-" + IDS.incrementAndGet(), options);
        StreamMemOps memOps;
        try {
            memOps = StreamMemOps.read(driver, page.domain().device());
        } catch (RuntimeException e) {
            try {
                page.line().close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        if (!memOps.usable()) {
            page.warn(Warning.of(ErrorCode.NoStreamMemOps, "cuda", page.domain().device(), memOps.detail()));
        }
        return new MappedLine(driver, page, memOps);
    }

    /** The host view: acquire loads of the words. */
    public CompletionLine line() { return page.line(); }

    /** The device address of word 0; word i is at +8·i (for stream-side waits). */
    public long deviceAddress() { return page.deviceAddress(Slot.of(0)); }

    public long deviceAddress(Slot slot) { return page.deviceAddress(slot); }

    /** The {@code CUdevice} whose primary context owns the line. */
    public int device() { return page.domain().device(); }

    /** The retained primary context (raw {@code CUcontext}). */
    public long context() { return page.domain().handle(); }

    /** Whether the device stores into the line, and which attribute said so. */
    public StreamMemOps memOps() { return memOps; }

    public CudaDriver driver() { return driver; }

    /**
     * Queues the store of {@code seq} into the slot's word behind the stream's queued work
     * ({@code cuStreamWriteValue64_v2}, default flags).
     *
     * @throws ReactorException {@code ForeignStream} for a stream of another context; {@code
     *     NoStreamMemOps} when the device has no stream memory ops; {@code LineClosed}; {@code Backend}
     */
    public void enqueueStore(CuStream stream, Slot slot, long seq) {
        Objects.requireNonNull(stream, "stream");
        if (!memOps.usable()) throw new ReactorException(ErrorCode.NoStreamMemOps, "cuda", device(), memOps.detail());
        page.enqueueStore(stream.handle(), slot, seq);
    }

    /** A port waiting for word {@code slot} to reach {@code target}; {@link CudaPort#arm()} queues the store. */
    public CudaPort port(CuStream stream, Slot slot, long target) {
        return new CudaPort(this, stream, slot, target);
    }

    /**
     * Forgets a stream whose work all ran (call it before destroying a stream that stored into
     * this line): {@code true} when it settled and is forgotten, {@code false} when it still runs.
     */
    public boolean retire(CuStream stream) {
        return page.retire(stream.handle());
    }

    /** The coded warnings so far ({@code NoStreamMemOps}, {@code LineLeaked}). */
    public List<Warning> warnings() { return page.warnings(); }

    public boolean isFreed() { return page.isFreed(); }

    public boolean isLeaked() { return page.isLeaked(); }

    MappedPage page() { return page; }

    /** Settles the streams, then frees the page and releases the context, or leaks both with a warning. */
    @Override
    public void close() {
        page.line().close();
    }

    @Override
    public String toString() { return "MappedLine[" + page + "]"; }
}
