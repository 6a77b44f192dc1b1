package dev.gpureactor.backend;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A completion line that a vendor's streams store sequence numbers into, behind their work: one
 * {@link MappedPage} (whose close settles the streams, then frees the page, or leaks it with {@code
 * LineLeaked}) plus what the vendor says ({@link LineVendor}): its stream and port types and whether
 * the device takes the store.
 *
 * <ul>
 *   <li>CUDA ({@code CudaDriver}): {@code cuMemHostAlloc(DEVICEMAP | PORTABLE)}, the primary context of
 *       the current context's device, {@code cuStreamWriteValue64_v2}; a device without stream memory
 *       operations still gets a line, with the coded warning {@code NoStreamMemOps}, and its ports
 *       query. See {@code docs/CUDA.md}.
 *   <li>HIP ({@code HipRuntime}): {@code hipHostMalloc(Mapped | Coherent)}, the current device's
 *       primary context, {@code hipStreamWriteValue64}. See {@code docs/HIP.md}.
 * </ul>
 *
 * <p>Streams that were given a store must outlive the close, or be {@linkplain #retire retired}
 * first. Safe to share between threads (see {@link MappedPage}).
 *
 * @param <S> the vendor's stream handle ({@code CuStream}, {@code HipStream})
 * @param <P> the vendor's port ({@code CudaPort}, {@code HipPort})
 */
public final class MappedLine<S extends DriverStream, P extends DriverPort<S>> implements AutoCloseable {
    private static final AtomicLong IDS = new AtomicLong(); // names only

    private final LineVendor<S, P> vendor;
    private final MappedPage page;
    private final StoreSupport stores;

    private MappedLine(LineVendor<S, P> vendor, MappedPage page, StoreSupport stores) {
        this.vendor = vendor;
        this.page = page;
        this.stores = stores;
    }

    /**
     * {@link #create(LineVendor, LineOptions)} with the default options.
     *
     * @param <S> the stream handle's type
     * @param <P> the port's type
     * @param vendor the vendor binding
     * @return the new line
     */
    public static <S extends DriverStream, P extends DriverPort<S>> MappedLine<S, P> create(LineVendor<S, P> vendor) {
        return create(vendor, LineOptions.defaults());
    }

    /**
     * {@return a fresh line reading all 0, owned by the primary context of the calling thread's current device
     * (CUDA: of its current context's device)}
     *
     * @param <S> the stream handle's type
     * @param <P> the port's type
     * @param vendor the vendor binding
     * @param options the options
     * @throws ReactorException {@code NativeUnavailable} naming every missing entry point (such as
     *     {@code cuStreamWriteValue64_v2}); {@code Backend} with the driver's error name when a call
     *     fails ({@code CUDA_ERROR_INVALID_CONTEXT} without a current context, out of memory, ...)
     */
    public static <S extends DriverStream, P extends DriverPort<S>> MappedLine<S, P> create(LineVendor<S, P> vendor,
                                                                                          LineOptions options) {
        Objects.requireNonNull(vendor, "vendor");
        Objects.requireNonNull(options, "options");
        LineDriver driver = vendor.lineDriver();
        MappedPage page = MappedPage.create(driver, driver.backend() + "-line-" + IDS.incrementAndGet(), options);
        StoreSupport stores;
        try {
            stores = vendor.storeSupport(page.domain().device());
        } catch (RuntimeException e) {
            try {
                page.line().close(); // nothing was stored yet: frees the page, releases the domain
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        if (!stores.usable()) {
            page.warn(Warning.of(ErrorCode.NoStreamMemOps, driver.backend(), page.domain().device(), stores.detail()));
        }
        return new MappedLine<>(vendor, page, stores);
    }

    /** {@return the host view: acquire loads of the words} */
    public CompletionLine line() { return page.line(); }

    /** {@return the device address of word 0; word i is at +8·i (for stream-side waits)} */
    public long deviceAddress() { return page.deviceAddress(Slot.of(0)); }

    /**
     * {@return the device address of word {@code slot}, for the vendor's store}
     *
     * @param slot the slot
     */
    public long deviceAddress(Slot slot) { return page.deviceAddress(slot); }

    /** {@return the device whose primary context owns the line} */
    public int device() { return page.domain().device(); }

    /** {@return the retained primary context (raw handle)} */
    public long context() { return page.domain().handle(); }

    /** {@return whether the device stores into the line, and what said so} */
    public StoreSupport stores() { return stores; }

    /** {@return the vendor binding the line was made from} */
    public LineVendor<S, P> vendor() { return vendor; }

    /** {@return the page under the line: its driver table, domain, options and tracked streams} */
    public MappedPage page() { return page; }

    /**
     * Queues the store of {@code seq} into the slot's word behind the stream's queued work.
     *
     * @param stream the stream
     * @param slot the slot
     * @param seq the sequence number
     * @throws ReactorException {@code ForeignStream} for a stream of another domain; {@code
     *     NoStreamMemOps} when the device takes no store; {@code LineClosed}; {@code Backend}
     */
    public void enqueueStore(S stream, Slot slot, long seq) {
        Objects.requireNonNull(stream, "stream");
        if (!stores.usable()) {
            throw new ReactorException(ErrorCode.NoStreamMemOps, page.driver().backend(), device(), stores.detail());
        }
        page.enqueueStore(stream.handle(), slot, seq);
    }

    /**
     * {@return a port waiting for word {@code slot} to reach {@code target}, parking with the line's options}
     *
     * @param stream the stream
     * @param slot the slot
     * @param target the value that means done
     */
    public P port(S stream, Slot slot, long target) {
        return port(stream, slot, target, page.options().park());
    }

    /**
     * {@return a port waiting for word {@code slot} to reach {@code target}, parking with {@code park}}
     *
     * @param stream the stream
     * @param slot the slot
     * @param target the value that means done
     * @param park the park on the word
     */
    public P port(S stream, Slot slot, long target, WordPark park) {
        return vendor.port(this, Objects.requireNonNull(stream, "stream"), slot, target, park);
    }

    /**
     * Forgets a stream whose work all ran (call it before destroying a stream that stored into
     * this line): {@code true} when it settled and is forgotten, {@code false} when it still runs.
     *
     * @param stream the stream
     * @return whether the stream settled and is forgotten
     */
    public boolean retire(S stream) {
        return page.retire(stream.handle());
    }

    /** {@return the coded warnings so far ({@code NoStreamMemOps}, {@code LineLeaked})} */
    public List<Warning> warnings() { return page.warnings(); }

    /** {@return whether the page was freed} */
    public boolean isFreed() { return page.isFreed(); }

    /** {@return whether the page was leaked instead of freed (a stream that did not settle)} */
    public boolean isLeaked() { return page.isLeaked(); }

    /** Settles the streams, then frees the page and releases the context, or leaks both with a warning. */
    @Override
    public void close() {
        page.line().close();
    }

    @Override
    public String toString() { return "MappedLine[" + page + "]"; }
}
