package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.LineDriver;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;

/** The HIP runtime table of a {@link dev.gpureactor.backend.MappedPage}: the domain is the device's primary context. */
final class HipLines implements LineDriver {
    /** Mapped for the device and fine-grained (coherent while kernels run); never write-combined. */
    static final int ALLOC_FLAGS = HipRuntime.hipHostMallocMapped | HipRuntime.hipHostMallocCoherent;

    private final HipRuntime hip;

    HipLines(HipRuntime hip) {
        this.hip = hip;
    }

    @Override public String backend() { return "hip"; }

    @Override public String library() { return hip.library(); }

    @Override
    public Domain retainDomain() {
        int device = hip.currentDevice();
        long ctx = hip.primaryContextRetain(device);
        return new Domain(device, ctx, "primary context 0x" + Long.toHexString(ctx) + " of HIP device " + device);
    }

    @Override
    public void releaseDomain(Domain domain) {
        hip.primaryContextRelease(domain.device());
    }

    @Override
    public long enter(Domain domain) {
        int previous = hip.currentDevice();
        if (previous != domain.device()) hip.setDevice(domain.device());
        return previous;
    }

    @Override
    public void exit(Domain domain, long token) {
        if ((int) token != domain.device()) hip.setDevice((int) token);
    }

    @Override
    public long allocPage(long bytes) {
        return hip.hostMalloc(bytes, ALLOC_FLAGS);
    }

    @Override
    public long devicePointer(long host) {
        return hip.hostDevicePointer(host);
    }

    @Override
    public void freePage(long host) {
        hip.hostFree(host);
    }

    @Override
    public void checkStream(Domain domain, long stream) {
        int device = hip.streamDevice(stream); // the null stream: the calling thread's current device
        if (device != domain.device()) {
            throw new ReactorException(ErrorCode.ForeignStream, new HipStream(stream) + " (device " + device + ")", domain);
        }
    }

    @Override
    public boolean implicitStream(long stream) { return stream == 0; }

    @Override
    public void writeValue64(long stream, long deviceAddress, long value) {
        hip.check("hipStreamWriteValue64",
                hip.hipStreamWriteValue64(MemorySegment.ofAddress(stream), MemorySegment.ofAddress(deviceAddress), value, 0));
    }

    @Override
    public int queryStatus(long stream) {
        return hip.hipStreamQuery(MemorySegment.ofAddress(stream));
    }

    @Override
    public int notReady() { return HipRuntime.hipErrorNotReady; }

    @Override
    public int synchronizeStatus(long stream) {
        return hip.hipStreamSynchronize(MemorySegment.ofAddress(stream));
    }

    @Override
    public String statusName(int status) { return hip.errorName(status); }

    @Override
    public ReactorException failure(String call, int status) { return hip.failure(call, status); }

    @Override public String queryCall() { return "hipStreamQuery"; }

    @Override public String synchronizeCall() { return "hipStreamSynchronize"; }
}
