package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.LineOptions;
import dev.gpureactor.backend.MappedPage;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A completion line that HIP streams store sequence numbers into, behind their work: the same
 * shape as the CUDA line, over the HIP runtime.
 *
 * <ul>
 *   <li>Memory: {@code hipHostMalloc(hipHostMallocMapped | hipHostMallocCoherent)}, a whole page.
 *       Coherent (fine-grained) memory stays coherent while a kernel runs; coarse-grained memory
 *       would become visible only at synchronization points. Never write-combined. Device address
 *       from {@code hipHostGetDevicePointer}.
 *   <li>Domain: the calling thread's current device ({@code hipGetDevice}) and its primary context,
 *       retained ({@code hipDevicePrimaryCtxRetain}) from before the allocation until after the
 *       free. Streams of another device are refused with {@code ForeignStream} ({@code
 *       hipStreamGetDevice}).
 *   <li>Stores: {@code hipStreamWriteValue64} (flags reserved: 0), after the stream's earlier work.
 *       ROCm marks it beta and implements it as a one-work-item kernel, so a store costs about a
 *       launch. HIP has no device attribute for write-value support.
 *   <li>Close: settle, then {@code hipHostFree}, or leak with {@code LineLeaked} (see {@link MappedPage}).
 * </ul>
 */
public final class MappedLine implements AutoCloseable {
    /** Every entry point a line needs. */
    public static final List<String> REQUIRED = List.of(
            "hipGetErrorName", "hipGetErrorString", "hipGetDevice", "hipSetDevice", "hipDevicePrimaryCtxRetain",
            "hipDevicePrimaryCtxRelease", "hipHostMalloc", "hipHostGetDevicePointer", "hipHostFree",
            "hipStreamGetDevice", "hipStreamQuery", "hipStreamSynchronize", "hipStreamWriteValue64");

    private static final AtomicLong IDS = new AtomicLong();

    private final HipRuntime hip;
    private final MappedPage page;

    private MappedLine(HipRuntime hip, MappedPage page) {
        this.hip = hip;
        this.page = page;
    }

    /** A line from the runtime named by {@code gar.hip.library}, with default options. */
    public static MappedLine create() {
        return create(HipRuntime.load(), LineOptions.defaults());
    }

    public static MappedLine create(HipRuntime hip) {
        return create(hip, LineOptions.defaults());
    }

    /**
     * A fresh line reading all 0 on the calling thread's current device.
     *
     * @throws dev.gpureactor.core.ReactorException {@code NativeUnavailable} naming a missing entry
     *     point; {@code Backend} with the runtime's error name when a call fails
     */
    public static MappedLine create(HipRuntime hip, LineOptions options) {
        Objects.requireNonNull(hip, "hip");
        Objects.requireNonNull(options, "options");
        hip.require(REQUIRED);
        return new MappedLine(hip, MappedPage.create(new HipLines(hip), "hip-line-" + IDS.incrementAndGet(), options));
    }

    public CompletionLine line() { return page.line(); }

    public long deviceAddress() { return page.deviceAddress(Slot.of(0)); }

    public long deviceAddress(Slot slot) { return page.deviceAddress(slot); }

    /** The device whose primary context owns the line. */
    public int device() { return page.domain().device(); }

    public HipRuntime runtime() { return hip; }

    /** Queues the store of {@code seq} into the slot's word behind the stream's queued work. */
    public void enqueueStore(HipStream stream, Slot slot, long seq) {
        Objects.requireNonNull(stream, "stream");
        page.enqueueStore(stream.handle(), slot, seq);
    }

    public HipPort port(HipStream stream, Slot slot, long target) {
        return new HipPort(this, stream, slot, target);
    }

    public boolean retire(HipStream stream) {
        return page.retire(stream.handle());
    }

    public List<Warning> warnings() { return page.warnings(); }

    public boolean isFreed() { return page.isFreed(); }

    public boolean isLeaked() { return page.isLeaked(); }

    MappedPage page() { return page; }

    @Override
    public void close() {
        page.line().close();
    }

    @Override
    public String toString() { return "MappedLine[" + page + "]"; }
}
