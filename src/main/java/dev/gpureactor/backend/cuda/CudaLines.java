package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.BoundLineDriver;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;

/** The CUDA driver table of a {@link dev.gpureactor.backend.MappedPage}: the domain is the primary context. */
final class CudaLines extends BoundLineDriver<CudaDriver> {
    /** The line's allocation flags: mapped for the device, usable from every context; never write-combined. */
    static final int ALLOC_FLAGS = CudaDriver.CU_MEMHOSTALLOC_DEVICEMAP | CudaDriver.CU_MEMHOSTALLOC_PORTABLE;

    CudaLines(CudaDriver cuda) {
        super(cuda);
    }

    @Override
    public Domain retainDomain() {
        int device = binding.currentDevice(); // CUDA_ERROR_INVALID_CONTEXT without a current context
        long ctx = binding.primaryContextRetain(device);
        return new Domain(device, ctx, "primary context 0x" + Long.toHexString(ctx) + " of CUDA device " + device);
    }

    @Override
    public void releaseDomain(Domain domain) {
        binding.primaryContextRelease(domain.device());
    }

    @Override
    public long enter(Domain domain) {
        binding.pushCurrent(domain.handle());
        return 0;
    }

    @Override
    public void exit(Domain domain, long token) {
        binding.popCurrent();
    }

    @Override
    public long allocPage(long bytes) {
        return binding.memHostAlloc(bytes, ALLOC_FLAGS);
    }

    @Override
    public long devicePointer(long host) {
        return binding.memHostDevicePointer(host);
    }

    @Override
    public void freePage(long host) {
        binding.memFreeHost(host);
    }

    @Override
    public void checkStream(Domain domain, long stream) {
        if (stream == CudaDriver.CU_STREAM_PER_THREAD) {
            // Each host thread has its own per-thread stream: a port or close on another thread
            // would query a different stream than the one that holds the store.
            throw new ReactorException(ErrorCode.InvalidArgument, "stream", "CU_STREAM_PER_THREAD (0x2)",
                    "an explicit stream, 0 or CU_STREAM_LEGACY; the per-thread stream is a different stream on every thread");
        }
        long ctx = binding.streamContext(stream); // the null stream: the calling thread's current context
        if (ctx != domain.handle()) {
            throw new ReactorException(ErrorCode.ForeignStream,
                    new CuStream(stream) + " (context 0x" + Long.toHexString(ctx) + ")", domain);
        }
    }

    @Override
    public boolean implicitStream(long stream) {
        return new CuStream(stream).isImplicit();
    }

    @Override
    public void writeValue64(long stream, long deviceAddress, long value) {
        binding.check("cuStreamWriteValue64_v2",
                binding.cuStreamWriteValue64_v2(MemorySegment.ofAddress(stream), deviceAddress, value, CudaDriver.CU_STREAM_WRITE_VALUE_DEFAULT));
    }

    @Override
    public int queryStatus(long stream) {
        return binding.cuStreamQuery(MemorySegment.ofAddress(stream));
    }

    @Override
    public int notReady() { return CudaDriver.CUDA_ERROR_NOT_READY; }

    @Override
    public int synchronizeStatus(long stream) {
        return binding.cuStreamSynchronize(MemorySegment.ofAddress(stream));
    }

    @Override public String queryCall() { return "cuStreamQuery"; }

    @Override public String synchronizeCall() { return "cuStreamSynchronize"; }
}
