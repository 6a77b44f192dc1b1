package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.BoundLineDriver;
import dev.gpureactor.backend.hip.raw.HipRaw;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;

/**
 * The HIP runtime table of a {@link dev.gpureactor.backend.MappedPage}: the domain is the device's primary
 * context, entered by setting the current device; a stream belongs to it when its device is that device.
 */
final class HipLines extends BoundLineDriver<HipRuntime> {
    /** Mapped for the device and fine-grained (coherent while kernels run); never write-combined. */
    static final int ALLOC_FLAGS = HipRaw.hipHostMallocMapped | HipRaw.hipHostMallocCoherent;

    HipLines(HipRuntime hip) {
        super(hip, "HIP", HipRaw.hipErrorNotReady, "hipStreamQuery", "hipStreamSynchronize");
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
                HipRaw.hipStreamWriteValue64(binding, MemorySegment.ofAddress(stream), MemorySegment.ofAddress(deviceAddress), value, 0));
    }

    @Override
    public int queryStatus(long stream) {
        return HipRaw.hipStreamQuery(binding, MemorySegment.ofAddress(stream));
    }

    @Override
    public int synchronizeStatus(long stream) {
        return HipRaw.hipStreamSynchronize(binding, MemorySegment.ofAddress(stream));
    }
}
