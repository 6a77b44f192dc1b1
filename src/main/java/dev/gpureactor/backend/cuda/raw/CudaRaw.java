package dev.gpureactor.backend.cuda.raw;

import dev.gpureactor.backend.DriverBinding;
import dev.gpureactor.backend.cuda.ffi.cuCtxCreate_v4_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxDestroy_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxGetCurrent_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxGetDevice_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxPopCurrent_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxPushCurrent_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuCtxSetCurrent_fn;
import dev.gpureactor.backend.cuda.ffi.cuDeviceGetAttribute_fn;
import dev.gpureactor.backend.cuda.ffi.cuDeviceGetCount_fn;
import dev.gpureactor.backend.cuda.ffi.cuDeviceGetName_fn;
import dev.gpureactor.backend.cuda.ffi.cuDeviceGet_fn;
import dev.gpureactor.backend.cuda.ffi.cuDevicePrimaryCtxRelease_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuDevicePrimaryCtxRetain_fn;
import dev.gpureactor.backend.cuda.ffi.cuDevicePrimaryCtxSetFlags_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuDriverGetVersion_fn;
import dev.gpureactor.backend.cuda.ffi.cuGetErrorName_fn;
import dev.gpureactor.backend.cuda.ffi.cuGetErrorString_fn;
import dev.gpureactor.backend.cuda.ffi.cuInit_fn;
import dev.gpureactor.backend.cuda.ffi.cuLaunchHostFunc_fn;
import dev.gpureactor.backend.cuda.ffi.cuLaunchKernel_fn;
import dev.gpureactor.backend.cuda.ffi.cuMemFreeHost_fn;
import dev.gpureactor.backend.cuda.ffi.cuMemHostAlloc_fn;
import dev.gpureactor.backend.cuda.ffi.cuMemHostGetDevicePointer_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuMemsetD8Async_fn;
import dev.gpureactor.backend.cuda.ffi.cuModuleGetFunction_fn;
import dev.gpureactor.backend.cuda.ffi.cuModuleLoadData_fn;
import dev.gpureactor.backend.cuda.ffi.cuModuleUnload_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamCreate_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamDestroy_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamGetCtx_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamQuery_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamSynchronize_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamWaitValue64_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuStreamWriteValue64_v2_fn;
import dev.gpureactor.backend.cuda.ffi.cuda_ffi_h;

import java.lang.foreign.MemorySegment;

/**
 * The raw CUDA driver calls: one static method per bound function of {@link CudaCall}, each the
 * jextract-generated {@code invoke} at the address the binding resolved once ({@link DriverBinding#need}),
 * returning the driver's {@code CUresult} unchecked; and the {@code cuda.h} constants this library uses.
 * {@code CudaDriver}'s checked helpers are written over these. Not exported: a user holds a {@code
 * CudaDriver}, a {@code CuStream}, a port; tools and tests call these on the class path.
 */
public final class CudaRaw {
    // cuda.h: enum cudaError_enum (the values this library tests for)
    /** {@code CUDA_SUCCESS}. */
    public static final int CUDA_SUCCESS = cuda_ffi_h.CUDA_SUCCESS();
    /** {@code CUDA_ERROR_INVALID_VALUE}. */
    public static final int CUDA_ERROR_INVALID_VALUE = cuda_ffi_h.CUDA_ERROR_INVALID_VALUE();
    /** {@code CUDA_ERROR_OUT_OF_MEMORY}. */
    public static final int CUDA_ERROR_OUT_OF_MEMORY = cuda_ffi_h.CUDA_ERROR_OUT_OF_MEMORY();
    /** {@code CUDA_ERROR_NOT_INITIALIZED}. */
    public static final int CUDA_ERROR_NOT_INITIALIZED = cuda_ffi_h.CUDA_ERROR_NOT_INITIALIZED();
    /** {@code CUDA_ERROR_INVALID_CONTEXT}. */
    public static final int CUDA_ERROR_INVALID_CONTEXT = cuda_ffi_h.CUDA_ERROR_INVALID_CONTEXT();
    /** {@code CUDA_ERROR_NOT_READY}. */
    public static final int CUDA_ERROR_NOT_READY = cuda_ffi_h.CUDA_ERROR_NOT_READY();
    /** {@code CUDA_ERROR_LAUNCH_FAILED}. */
    public static final int CUDA_ERROR_LAUNCH_FAILED = cuda_ffi_h.CUDA_ERROR_LAUNCH_FAILED();
    /** {@code CUDA_ERROR_NOT_SUPPORTED}. */
    public static final int CUDA_ERROR_NOT_SUPPORTED = cuda_ffi_h.CUDA_ERROR_NOT_SUPPORTED();
    /** The image has no SASS for this GPU and no PTX the driver can compile for it. */
    public static final int CUDA_ERROR_NO_BINARY_FOR_GPU = cuda_ffi_h.CUDA_ERROR_NO_BINARY_FOR_GPU();
    // cuda.h: cuMemHostAlloc flags
    /** {@code CU_MEMHOSTALLOC_PORTABLE}. */
    public static final int CU_MEMHOSTALLOC_PORTABLE = cuda_ffi_h.CU_MEMHOSTALLOC_PORTABLE();
    /** {@code CU_MEMHOSTALLOC_DEVICEMAP}. */
    public static final int CU_MEMHOSTALLOC_DEVICEMAP = cuda_ffi_h.CU_MEMHOSTALLOC_DEVICEMAP();
    /** Never used for a line: its memory bypasses the CPU caches, so no monitor would see the store. */
    public static final int CU_MEMHOSTALLOC_WRITECOMBINED = cuda_ffi_h.CU_MEMHOSTALLOC_WRITECOMBINED();
    // cuda.h: enum CUdevice_attribute_enum (stream memory operations, legacy and current numbers)
    /** {@code CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1}. */
    public static final int CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 = cuda_ffi_h.CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1();
    /** {@code CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1}. */
    public static final int CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1 = cuda_ffi_h.CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1();
    /** {@code CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS}. */
    public static final int CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS = cuda_ffi_h.CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS();
    // cuda.h: stream flags and special handles
    /** {@code CU_STREAM_DEFAULT}. */
    public static final int CU_STREAM_DEFAULT = cuda_ffi_h.CU_STREAM_DEFAULT();
    /** {@code CU_STREAM_NON_BLOCKING}. */
    public static final int CU_STREAM_NON_BLOCKING = cuda_ffi_h.CU_STREAM_NON_BLOCKING();
    /** {@code CU_STREAM_LEGACY}. */
    public static final long CU_STREAM_LEGACY = 0x1;
    /** {@code CU_STREAM_PER_THREAD}. */
    public static final long CU_STREAM_PER_THREAD = 0x2;
    /** {@code CU_STREAM_WRITE_VALUE_DEFAULT}. */
    public static final int CU_STREAM_WRITE_VALUE_DEFAULT = cuda_ffi_h.CU_STREAM_WRITE_VALUE_DEFAULT();
    /** cuda.h: wait until {@code (int64_t)(*addr - value) >= 0} (wrapping order, as a descriptor is reached). */
    public static final int CU_STREAM_WAIT_VALUE_GEQ = cuda_ffi_h.CU_STREAM_WAIT_VALUE_GEQ();
    // cuda.h: CUctx_flags, the scheduling of a thread blocked in a synchronize call
    /** {@code CU_CTX_SCHED_AUTO}. */
    public static final int CU_CTX_SCHED_AUTO = cuda_ffi_h.CU_CTX_SCHED_AUTO();
    /** {@code CU_CTX_SCHED_SPIN}. */
    public static final int CU_CTX_SCHED_SPIN = cuda_ffi_h.CU_CTX_SCHED_SPIN();
    /** {@code CU_CTX_SCHED_YIELD}. */
    public static final int CU_CTX_SCHED_YIELD = cuda_ffi_h.CU_CTX_SCHED_YIELD();
    /** {@code CU_CTX_SCHED_BLOCKING_SYNC}. */
    public static final int CU_CTX_SCHED_BLOCKING_SYNC = cuda_ffi_h.CU_CTX_SCHED_BLOCKING_SYNC();

    private CudaRaw() {}

    /** {@code cuInit}; returns the {@code CUresult}. */
    public static int cuInit(DriverBinding<CudaCall> cuda, int Flags) {
        return cuInit_fn.invoke(cuda.need(CudaCall.cuInit), Flags);
    }

    /** {@code cuDriverGetVersion}; returns the {@code CUresult}. */
    public static int cuDriverGetVersion(DriverBinding<CudaCall> cuda, MemorySegment driverVersion) {
        return cuDriverGetVersion_fn.invoke(cuda.need(CudaCall.cuDriverGetVersion), driverVersion);
    }

    /** {@code cuGetErrorName}; returns the {@code CUresult}. */
    public static int cuGetErrorName(DriverBinding<CudaCall> cuda, int error, MemorySegment pStr) {
        return cuGetErrorName_fn.invoke(cuda.need(CudaCall.cuGetErrorName), error, pStr);
    }

    /** {@code cuGetErrorString}; returns the {@code CUresult}. */
    public static int cuGetErrorString(DriverBinding<CudaCall> cuda, int error, MemorySegment pStr) {
        return cuGetErrorString_fn.invoke(cuda.need(CudaCall.cuGetErrorString), error, pStr);
    }

    /** {@code cuDeviceGetCount}; returns the {@code CUresult}. */
    public static int cuDeviceGetCount(DriverBinding<CudaCall> cuda, MemorySegment count) {
        return cuDeviceGetCount_fn.invoke(cuda.need(CudaCall.cuDeviceGetCount), count);
    }

    /** {@code cuDeviceGet}; returns the {@code CUresult}. */
    public static int cuDeviceGet(DriverBinding<CudaCall> cuda, MemorySegment device, int ordinal) {
        return cuDeviceGet_fn.invoke(cuda.need(CudaCall.cuDeviceGet), device, ordinal);
    }

    /** {@code cuDeviceGetName}; returns the {@code CUresult}. */
    public static int cuDeviceGetName(DriverBinding<CudaCall> cuda, MemorySegment name, int len, int dev) {
        return cuDeviceGetName_fn.invoke(cuda.need(CudaCall.cuDeviceGetName), name, len, dev);
    }

    /** {@code cuDeviceGetAttribute}; returns the {@code CUresult}. */
    public static int cuDeviceGetAttribute(DriverBinding<CudaCall> cuda, MemorySegment pi, int attrib, int dev) {
        return cuDeviceGetAttribute_fn.invoke(cuda.need(CudaCall.cuDeviceGetAttribute), pi, attrib, dev);
    }

    /** {@code cuDevicePrimaryCtxRetain}; returns the {@code CUresult}. */
    public static int cuDevicePrimaryCtxRetain(DriverBinding<CudaCall> cuda, MemorySegment pctx, int dev) {
        return cuDevicePrimaryCtxRetain_fn.invoke(cuda.need(CudaCall.cuDevicePrimaryCtxRetain), pctx, dev);
    }

    /** {@code cuDevicePrimaryCtxRelease_v2}; returns the {@code CUresult}. */
    public static int cuDevicePrimaryCtxRelease_v2(DriverBinding<CudaCall> cuda, int dev) {
        return cuDevicePrimaryCtxRelease_v2_fn.invoke(cuda.need(CudaCall.cuDevicePrimaryCtxRelease_v2), dev);
    }

    /** The primary context's flags ({@code CU_CTX_SCHED_*}); since CUDA 11 also while it is active. */
    public static int cuDevicePrimaryCtxSetFlags_v2(DriverBinding<CudaCall> cuda, int dev, int flags) {
        return cuDevicePrimaryCtxSetFlags_v2_fn.invoke(cuda.need(CudaCall.cuDevicePrimaryCtxSetFlags_v2), dev, flags);
    }

    /** {@code cuCtxCreate_v4}; returns the {@code CUresult}. */
    public static int cuCtxCreate_v4(DriverBinding<CudaCall> cuda, MemorySegment pctx, MemorySegment ctxCreateParams, int flags, int dev) {
        return cuCtxCreate_v4_fn.invoke(cuda.need(CudaCall.cuCtxCreate_v4), pctx, ctxCreateParams, flags, dev);
    }

    /** {@code cuCtxDestroy_v2}; returns the {@code CUresult}. */
    public static int cuCtxDestroy_v2(DriverBinding<CudaCall> cuda, MemorySegment ctx) {
        return cuCtxDestroy_v2_fn.invoke(cuda.need(CudaCall.cuCtxDestroy_v2), ctx);
    }

    /** {@code cuCtxGetCurrent}; returns the {@code CUresult}. */
    public static int cuCtxGetCurrent(DriverBinding<CudaCall> cuda, MemorySegment pctx) {
        return cuCtxGetCurrent_fn.invoke(cuda.need(CudaCall.cuCtxGetCurrent), pctx);
    }

    /** {@code cuCtxSetCurrent}; returns the {@code CUresult}. */
    public static int cuCtxSetCurrent(DriverBinding<CudaCall> cuda, MemorySegment ctx) {
        return cuCtxSetCurrent_fn.invoke(cuda.need(CudaCall.cuCtxSetCurrent), ctx);
    }

    /** {@code cuCtxPushCurrent_v2}; returns the {@code CUresult}. */
    public static int cuCtxPushCurrent_v2(DriverBinding<CudaCall> cuda, MemorySegment ctx) {
        return cuCtxPushCurrent_v2_fn.invoke(cuda.need(CudaCall.cuCtxPushCurrent_v2), ctx);
    }

    /** {@code cuCtxPopCurrent_v2}; returns the {@code CUresult}. */
    public static int cuCtxPopCurrent_v2(DriverBinding<CudaCall> cuda, MemorySegment pctx) {
        return cuCtxPopCurrent_v2_fn.invoke(cuda.need(CudaCall.cuCtxPopCurrent_v2), pctx);
    }

    /** {@code cuCtxGetDevice}; returns the {@code CUresult}. */
    public static int cuCtxGetDevice(DriverBinding<CudaCall> cuda, MemorySegment device) {
        return cuCtxGetDevice_fn.invoke(cuda.need(CudaCall.cuCtxGetDevice), device);
    }

    /** {@code cuMemHostAlloc}; returns the {@code CUresult}. */
    public static int cuMemHostAlloc(DriverBinding<CudaCall> cuda, MemorySegment pp, long bytesize, int Flags) {
        return cuMemHostAlloc_fn.invoke(cuda.need(CudaCall.cuMemHostAlloc), pp, bytesize, Flags);
    }

    /** {@code cuMemHostGetDevicePointer_v2}; returns the {@code CUresult}. */
    public static int cuMemHostGetDevicePointer_v2(DriverBinding<CudaCall> cuda, MemorySegment pdptr, MemorySegment p, int Flags) {
        return cuMemHostGetDevicePointer_v2_fn.invoke(cuda.need(CudaCall.cuMemHostGetDevicePointer_v2), pdptr, p, Flags);
    }

    /** {@code cuMemFreeHost}; returns the {@code CUresult}. */
    public static int cuMemFreeHost(DriverBinding<CudaCall> cuda, MemorySegment p) {
        return cuMemFreeHost_fn.invoke(cuda.need(CudaCall.cuMemFreeHost), p);
    }

    /** {@code cuStreamCreate}; returns the {@code CUresult}. */
    public static int cuStreamCreate(DriverBinding<CudaCall> cuda, MemorySegment phStream, int Flags) {
        return cuStreamCreate_fn.invoke(cuda.need(CudaCall.cuStreamCreate), phStream, Flags);
    }

    /** {@code cuStreamDestroy_v2}; returns the {@code CUresult}. */
    public static int cuStreamDestroy_v2(DriverBinding<CudaCall> cuda, MemorySegment hStream) {
        return cuStreamDestroy_v2_fn.invoke(cuda.need(CudaCall.cuStreamDestroy_v2), hStream);
    }

    /** {@code cuStreamGetCtx}; returns the {@code CUresult}. */
    public static int cuStreamGetCtx(DriverBinding<CudaCall> cuda, MemorySegment hStream, MemorySegment pctx) {
        return cuStreamGetCtx_fn.invoke(cuda.need(CudaCall.cuStreamGetCtx), hStream, pctx);
    }

    /** {@code cuStreamQuery}; returns the {@code CUresult}. */
    public static int cuStreamQuery(DriverBinding<CudaCall> cuda, MemorySegment hStream) {
        return cuStreamQuery_fn.invoke(cuda.need(CudaCall.cuStreamQuery), hStream);
    }

    /** {@code cuStreamSynchronize}; returns the {@code CUresult}. */
    public static int cuStreamSynchronize(DriverBinding<CudaCall> cuda, MemorySegment hStream) {
        return cuStreamSynchronize_fn.invoke(cuda.need(CudaCall.cuStreamSynchronize), hStream);
    }

    /** {@code cuMemsetD8Async}; returns the {@code CUresult}. */
    public static int cuMemsetD8Async(DriverBinding<CudaCall> cuda, long dstDevice, byte uc, long N, MemorySegment hStream) {
        return cuMemsetD8Async_fn.invoke(cuda.need(CudaCall.cuMemsetD8Async), dstDevice, uc, N, hStream);
    }

    /** {@code cuLaunchHostFunc}; returns the {@code CUresult}. */
    public static int cuLaunchHostFunc(DriverBinding<CudaCall> cuda, MemorySegment hStream, MemorySegment fn, MemorySegment userData) {
        return cuLaunchHostFunc_fn.invoke(cuda.need(CudaCall.cuLaunchHostFunc), hStream, fn, userData);
    }

    /** {@code cuModuleLoadData}; returns the {@code CUresult}. */
    public static int cuModuleLoadData(DriverBinding<CudaCall> cuda, MemorySegment module, MemorySegment image) {
        return cuModuleLoadData_fn.invoke(cuda.need(CudaCall.cuModuleLoadData), module, image);
    }

    /** {@code cuModuleUnload}; returns the {@code CUresult}. */
    public static int cuModuleUnload(DriverBinding<CudaCall> cuda, MemorySegment hmod) {
        return cuModuleUnload_fn.invoke(cuda.need(CudaCall.cuModuleUnload), hmod);
    }

    /** {@code cuModuleGetFunction}; returns the {@code CUresult}. */
    public static int cuModuleGetFunction(DriverBinding<CudaCall> cuda, MemorySegment hfunc, MemorySegment hmod, MemorySegment name) {
        return cuModuleGetFunction_fn.invoke(cuda.need(CudaCall.cuModuleGetFunction), hfunc, hmod, name);
    }

    /** {@code cuLaunchKernel}; returns the {@code CUresult}. */
    public static int cuLaunchKernel(DriverBinding<CudaCall> cuda, MemorySegment f, int gridDimX, int gridDimY, int gridDimZ, int blockDimX, int blockDimY, int blockDimZ,
                              int sharedMemBytes, MemorySegment hStream, MemorySegment kernelParams, MemorySegment extra) {
        return cuLaunchKernel_fn.invoke(cuda.need(CudaCall.cuLaunchKernel), f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
                blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
    }

    /** The store behind the stream's work; flags {@link #CU_STREAM_WRITE_VALUE_DEFAULT} order earlier work. */
    public static int cuStreamWriteValue64_v2(DriverBinding<CudaCall> cuda, MemorySegment stream, long addr, long value, int flags) {
        return cuStreamWriteValue64_v2_fn.invoke(cuda.need(CudaCall.cuStreamWriteValue64_v2), stream, addr, value, flags);
    }

    /** The stream stands still until the word at {@code addr} passes the test of {@code flags} ({@link #CU_STREAM_WAIT_VALUE_GEQ}). */
    public static int cuStreamWaitValue64_v2(DriverBinding<CudaCall> cuda, MemorySegment stream, long addr, long value, int flags) {
        return cuStreamWaitValue64_v2_fn.invoke(cuda.need(CudaCall.cuStreamWaitValue64_v2), stream, addr, value, flags);
    }
}
