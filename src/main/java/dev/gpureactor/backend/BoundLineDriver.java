package dev.gpureactor.backend;

import dev.gpureactor.core.ReactorException;

import java.util.Objects;

/**
 * A {@link LineDriver} over a vendor's binding: what CUDA and HIP do alike is written here once (the
 * names and the coded errors from the {@link DriverBinding}; the domain, a retained primary context, from
 * its {@link PrimaryContexts}; the page from its {@link StreamCalls}), so a vendor's table holds only its
 * own calls: entering the domain, the stream checks, the store, the query and the wait.
 *
 * @param <B> the vendor binding
 */
public abstract class BoundLineDriver<B extends DriverBinding<?> & PrimaryContexts & StreamCalls<?>> implements LineDriver {
    /** The binding every call goes to; immutable, shared by every line of the library. */
    protected final B binding;
    /** "CUDA", "HIP": how a domain's description names the vendor. */
    private final String vendor;
    private final int notReady;
    private final String queryCall;
    private final String synchronizeCall;

    /**
     * The table of a line over {@code binding}: its calls, names and coded errors.
     *
     * @param vendor          how a domain's description names the vendor ("CUDA", "HIP")
     * @param notReady        the status of a stream still running
     * @param queryCall       the name of the call behind {@link #queryStatus}, for messages
     * @param synchronizeCall the name of the call behind {@link #synchronizeStatus}, for messages
     * @param binding the vendor binding
     */
    protected BoundLineDriver(B binding, String vendor, int notReady, String queryCall, String synchronizeCall) {
        this.binding = Objects.requireNonNull(binding, "binding");
        this.vendor = Objects.requireNonNull(vendor, "vendor");
        this.notReady = notReady;
        this.queryCall = Objects.requireNonNull(queryCall, "queryCall");
        this.synchronizeCall = Objects.requireNonNull(synchronizeCall, "synchronizeCall");
    }

    @Override
    public final String backend() { return binding.backend(); }

    @Override
    public final String library() { return binding.library(); }

    @Override
    public final String statusName(int status) { return binding.errorName(status); }

    @Override
    public final ReactorException failure(String call, int status) { return binding.failure(call, status); }

    /** The primary context of the calling thread's current device (CUDA: none current is {@code INVALID_CONTEXT}). */
    @Override
    public final Domain retainDomain() {
        int device = binding.currentDevice();
        long ctx = binding.primaryContextRetain(device);
        return new Domain(device, ctx, "primary context 0x" + Long.toHexString(ctx) + " of " + vendor + " device " + device);
    }

    @Override
    public final void releaseDomain(Domain domain) { binding.primaryContextRelease(domain.device()); }

    @Override
    public final long allocPage(long bytes) { return binding.allocMapped(bytes); }

    @Override
    public final long devicePointer(long host) { return binding.mappedDevicePointer(host); }

    @Override
    public final void freePage(long host) { binding.freeMapped(host); }

    @Override
    public final int notReady() { return notReady; }

    @Override
    public final String queryCall() { return queryCall; }

    @Override
    public final String synchronizeCall() { return synchronizeCall; }
}
