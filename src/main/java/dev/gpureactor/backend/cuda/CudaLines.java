package dev.gpureactor.backend.cuda;

import dev.gpureactor.backend.BoundLineDriver;
import dev.gpureactor.backend.cuda.raw.CudaRaw;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;

/**
 * The CUDA driver table of a {@link dev.gpureactor.backend.MappedPage}: the domain is the primary context,
 * entered by push and pop; a stream belongs to it when its context is that context.
 */
final class CudaLines extends BoundLineDriver<CudaDriver> {
    /** The line's allocation flags: mapped for the device, usable from every context; never write-combined. */
    static final int ALLOC_FLAGS = CudaRaw.CU_MEMHOSTALLOC_DEVICEMAP | CudaRaw.CU_MEMHOSTALLOC_PORTABLE;

    CudaLines(CudaDriver cuda) {
        super(cuda, "CUDA", CudaRaw.CUDA_ERROR_NOT_READY, "cuStreamQuery", "cuStreamSynchronize");
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
    public void checkStream(Domain domain, long stream) {
        if (stream == CudaRaw.CU_STREAM_PER_THREAD) {
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
                CudaRaw.cuStreamWriteValue64_v2(binding, MemorySegment.ofAddress(stream), deviceAddress, value, CudaRaw.CU_STREAM_WRITE_VALUE_DEFAULT));
    }

    @Override
    public int queryStatus(long stream) {
        return CudaRaw.cuStreamQuery(binding, MemorySegment.ofAddress(stream));
    }

    @Override
    public int synchronizeStatus(long stream) {
        return CudaRaw.cuStreamSynchronize(binding, MemorySegment.ofAddress(stream));
    }
}
