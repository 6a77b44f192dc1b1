package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.BoundLineDriver;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;

/** The HIP runtime table of a {@link dev.gpureactor.backend.MappedPage}: the domain is the device's primary context. */
final class HipLines extends BoundLineDriver<HipRuntime> {
    /** Mapped for the device and fine-grained (coherent while kernels run); never write-combined. */
    static final int ALLOC_FLAGS = HipRuntime.hipHostMallocMapped | HipRuntime.hipHostMallocCoherent;

    HipLines(HipRuntime hip) {
        super(hip);
    }

    @Override
    public Domain retainDomain() {
        int device = binding.currentDevice();
        long ctx = binding.primaryContextRetain(device);
        return new Domain(device, ctx, "primary context 0x" + Long.toHexString(ctx) + " of HIP device " + device);
    }

    @Override
    public void releaseDomain(Domain domain) {
        binding.primaryContextRelease(domain.device());
    }

    @Override
    public long enter(Domain domain) {
        int previous = binding.currentDevice();
        if (previous != domain.device()) binding.setDevice(domain.device());
        return previous;
    }

    @Override
    public void exit(Domain domain, long token) {
        if ((int) token != domain.device()) binding.setDevice((int) token);
    }

    @Override
    public long allocPage(long bytes) {
        return binding.hostMalloc(bytes, ALLOC_FLAGS);
    }

    @Override
    public long devicePointer(long host) {
        return binding.hostDevicePointer(host);
    }

    @Override
    public void freePage(long host) {
        binding.hostFree(host);
    }

    @Override
    public void checkStream(Domain domain, long stream) {
        int device = binding.streamDevice(stream); // the null stream: the calling thread's current device
        if (device != domain.device()) {
            throw new ReactorException(ErrorCode.ForeignStream, new HipStream(stream) + " (device " + device + ")", domain);
        }
    }

    @Override
    public boolean implicitStream(long stream) { return stream == 0; }

    @Override
    public void writeValue64(long stream, long deviceAddress, long value) {
        binding.check("hipStreamWriteValue64",
                binding.hipStreamWriteValue64(MemorySegment.ofAddress(stream), MemorySegment.ofAddress(deviceAddress), value, 0));
    }

    @Override
    public int queryStatus(long stream) {
        return binding.hipStreamQuery(MemorySegment.ofAddress(stream));
    }

    @Override
    public int notReady() { return HipRuntime.hipErrorNotReady; }

    @Override
    public int synchronizeStatus(long stream) {
        return binding.hipStreamSynchronize(MemorySegment.ofAddress(stream));
    }

    @Override public String queryCall() { return "hipStreamQuery"; }

    @Override public String synchronizeCall() { return "hipStreamSynchronize"; }
}
