package dev.gpureactor.backend.hip.raw;

import dev.gpureactor.backend.DriverBinding;
import dev.gpureactor.backend.hip.ffi.hipDeviceGetName_fn;
import dev.gpureactor.backend.hip.ffi.hipDeviceGet_fn;
import dev.gpureactor.backend.hip.ffi.hipDevicePrimaryCtxRelease_fn;
import dev.gpureactor.backend.hip.ffi.hipDevicePrimaryCtxRetain_fn;
import dev.gpureactor.backend.hip.ffi.hipDriverGetVersion_fn;
import dev.gpureactor.backend.hip.ffi.hipGetDeviceCount_fn;
import dev.gpureactor.backend.hip.ffi.hipGetDevice_fn;
import dev.gpureactor.backend.hip.ffi.hipGetErrorName_fn;
import dev.gpureactor.backend.hip.ffi.hipGetErrorString_fn;
import dev.gpureactor.backend.hip.ffi.hipHostFree_fn;
import dev.gpureactor.backend.hip.ffi.hipHostGetDevicePointer_fn;
import dev.gpureactor.backend.hip.ffi.hipHostMalloc_fn;
import dev.gpureactor.backend.hip.ffi.hipInit_fn;
import dev.gpureactor.backend.hip.ffi.hipLaunchHostFunc_fn;
import dev.gpureactor.backend.hip.ffi.hipMemsetD8Async_fn;
import dev.gpureactor.backend.hip.ffi.hipSetDevice_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamCreate_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamDestroy_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamGetDevice_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamQuery_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamSynchronize_fn;
import dev.gpureactor.backend.hip.ffi.hipStreamWriteValue64_fn;
import dev.gpureactor.backend.hip.ffi.hip_ffi_h;

import java.lang.foreign.MemorySegment;

/**
 * The raw HIP runtime calls: one static method per bound function of {@link HipCall}, each the
 * jextract-generated {@code invoke} at the address the binding resolved once ({@link DriverBinding#need}),
 * returning the runtime's {@code hipError_t} unchecked (the error-text calls return the C string); and the
 * {@code hip_runtime_api.h} constants this library uses. {@code HipRuntime}'s checked helpers are written
 * over these. Not exported: a user holds a {@code HipRuntime}, a {@code HipStream}, a port; tools and tests
 * call these on the class path.
 */
public final class HipRaw {
    // hip_runtime_api.h: hipError_t (the values this library tests for)
    /** {@code hipSuccess}. */
    public static final int hipSuccess = hip_ffi_h.hipSuccess();
    /** {@code hipErrorInvalidValue}. */
    public static final int hipErrorInvalidValue = hip_ffi_h.hipErrorInvalidValue();
    /** {@code hipErrorOutOfMemory}. */
    public static final int hipErrorOutOfMemory = hip_ffi_h.hipErrorOutOfMemory();
    /** What {@code hipGetDeviceCount} answers on a machine without an AMD GPU. */
    public static final int hipErrorNoDevice = hip_ffi_h.hipErrorNoDevice();
    /** {@code hipErrorNotReady}. */
    public static final int hipErrorNotReady = hip_ffi_h.hipErrorNotReady();
    /** {@code hipErrorLaunchFailure}. */
    public static final int hipErrorLaunchFailure = hip_ffi_h.hipErrorLaunchFailure();
    // hip_runtime_api.h: hipHostMalloc flags
    /** {@code hipHostMallocPortable}. */
    public static final int hipHostMallocPortable = hip_ffi_h.hipHostMallocPortable();
    /** {@code hipHostMallocMapped}. */
    public static final int hipHostMallocMapped = hip_ffi_h.hipHostMallocMapped();
    /** Never used for a line. */
    public static final int hipHostMallocWriteCombined = hip_ffi_h.hipHostMallocWriteCombined();
    /** Fine-grained: stays coherent while kernels run (system-scope stores are visible to the host). */
    public static final int hipHostMallocCoherent = hip_ffi_h.hipHostMallocCoherent();
    /** {@code hipHostMallocNonCoherent}. */
    public static final int hipHostMallocNonCoherent = hip_ffi_h.hipHostMallocNonCoherent();

    private HipRaw() {}

    /** {@code hipInit}; returns the {@code hipError_t}. */
    public static int hipInit(DriverBinding<HipCall> hip, int flags) {
        return hipInit_fn.invoke(hip.need(HipCall.hipInit), flags);
    }

    /** {@code hipDriverGetVersion}; returns the {@code hipError_t}. */
    public static int hipDriverGetVersion(DriverBinding<HipCall> hip, MemorySegment driverVersion) {
        return hipDriverGetVersion_fn.invoke(hip.need(HipCall.hipDriverGetVersion), driverVersion);
    }

    /** {@code hipGetErrorName}; returns the {@code hipError_t}. */
    public static MemorySegment hipGetErrorName(DriverBinding<HipCall> hip, int error) {
        return hipGetErrorName_fn.invoke(hip.need(HipCall.hipGetErrorName), error);
    }

    /** {@code hipGetErrorString}; returns the {@code hipError_t}. */
    public static MemorySegment hipGetErrorString(DriverBinding<HipCall> hip, int error) {
        return hipGetErrorString_fn.invoke(hip.need(HipCall.hipGetErrorString), error);
    }

    /** {@code hipGetDeviceCount}; returns the {@code hipError_t}. */
    public static int hipGetDeviceCount(DriverBinding<HipCall> hip, MemorySegment count) {
        return hipGetDeviceCount_fn.invoke(hip.need(HipCall.hipGetDeviceCount), count);
    }

    /** {@code hipGetDevice}; returns the {@code hipError_t}. */
    public static int hipGetDevice(DriverBinding<HipCall> hip, MemorySegment deviceId) {
        return hipGetDevice_fn.invoke(hip.need(HipCall.hipGetDevice), deviceId);
    }

    /** {@code hipSetDevice}; returns the {@code hipError_t}. */
    public static int hipSetDevice(DriverBinding<HipCall> hip, int deviceId) {
        return hipSetDevice_fn.invoke(hip.need(HipCall.hipSetDevice), deviceId);
    }

    /** {@code hipDeviceGet}; returns the {@code hipError_t}. */
    public static int hipDeviceGet(DriverBinding<HipCall> hip, MemorySegment device, int ordinal) {
        return hipDeviceGet_fn.invoke(hip.need(HipCall.hipDeviceGet), device, ordinal);
    }

    /** {@code hipDeviceGetName}; returns the {@code hipError_t}. */
    public static int hipDeviceGetName(DriverBinding<HipCall> hip, MemorySegment name, int len, int device) {
        return hipDeviceGetName_fn.invoke(hip.need(HipCall.hipDeviceGetName), name, len, device);
    }

    /** {@code hipDevicePrimaryCtxRetain}; returns the {@code hipError_t}. */
    public static int hipDevicePrimaryCtxRetain(DriverBinding<HipCall> hip, MemorySegment pctx, int dev) {
        return hipDevicePrimaryCtxRetain_fn.invoke(hip.need(HipCall.hipDevicePrimaryCtxRetain), pctx, dev);
    }

    /** {@code hipDevicePrimaryCtxRelease}; returns the {@code hipError_t}. */
    public static int hipDevicePrimaryCtxRelease(DriverBinding<HipCall> hip, int dev) {
        return hipDevicePrimaryCtxRelease_fn.invoke(hip.need(HipCall.hipDevicePrimaryCtxRelease), dev);
    }

    /** {@code hipHostMalloc}; returns the {@code hipError_t}. */
    public static int hipHostMalloc(DriverBinding<HipCall> hip, MemorySegment ptr, long size, int flags) {
        return hipHostMalloc_fn.invoke(hip.need(HipCall.hipHostMalloc), ptr, size, flags);
    }

    /** {@code hipHostGetDevicePointer}; returns the {@code hipError_t}. */
    public static int hipHostGetDevicePointer(DriverBinding<HipCall> hip, MemorySegment devPtr, MemorySegment hstPtr, int flags) {
        return hipHostGetDevicePointer_fn.invoke(hip.need(HipCall.hipHostGetDevicePointer), devPtr, hstPtr, flags);
    }

    /** {@code hipHostFree}; returns the {@code hipError_t}. */
    public static int hipHostFree(DriverBinding<HipCall> hip, MemorySegment ptr) {
        return hipHostFree_fn.invoke(hip.need(HipCall.hipHostFree), ptr);
    }

    /** {@code hipStreamCreate}; returns the {@code hipError_t}. */
    public static int hipStreamCreate(DriverBinding<HipCall> hip, MemorySegment stream) {
        return hipStreamCreate_fn.invoke(hip.need(HipCall.hipStreamCreate), stream);
    }

    /** {@code hipStreamDestroy}; returns the {@code hipError_t}. */
    public static int hipStreamDestroy(DriverBinding<HipCall> hip, MemorySegment stream) {
        return hipStreamDestroy_fn.invoke(hip.need(HipCall.hipStreamDestroy), stream);
    }

    /** {@code hipStreamGetDevice}; returns the {@code hipError_t}. */
    public static int hipStreamGetDevice(DriverBinding<HipCall> hip, MemorySegment stream, MemorySegment device) {
        return hipStreamGetDevice_fn.invoke(hip.need(HipCall.hipStreamGetDevice), stream, device);
    }

    /** {@code hipStreamQuery}; returns the {@code hipError_t}. */
    public static int hipStreamQuery(DriverBinding<HipCall> hip, MemorySegment stream) {
        return hipStreamQuery_fn.invoke(hip.need(HipCall.hipStreamQuery), stream);
    }

    /** {@code hipStreamSynchronize}; returns the {@code hipError_t}. */
    public static int hipStreamSynchronize(DriverBinding<HipCall> hip, MemorySegment stream) {
        return hipStreamSynchronize_fn.invoke(hip.need(HipCall.hipStreamSynchronize), stream);
    }

    /** The store behind the stream's work (flags "reserved, ignored": pass 0). */
    public static int hipStreamWriteValue64(DriverBinding<HipCall> hip, MemorySegment stream, MemorySegment ptr, long value, int flags) {
        return hipStreamWriteValue64_fn.invoke(hip.need(HipCall.hipStreamWriteValue64), stream, ptr, value, flags);
    }

    /** {@code hipMemsetD8Async}; returns the {@code hipError_t}. */
    public static int hipMemsetD8Async(DriverBinding<HipCall> hip, MemorySegment dest, byte value, long count, MemorySegment stream) {
        return hipMemsetD8Async_fn.invoke(hip.need(HipCall.hipMemsetD8Async), dest, value, count, stream);
    }

    /** {@code hipLaunchHostFunc}; returns the {@code hipError_t}. */
    public static int hipLaunchHostFunc(DriverBinding<HipCall> hip, MemorySegment stream, MemorySegment fn, MemorySegment userData) {
        return hipLaunchHostFunc_fn.invoke(hip.need(HipCall.hipLaunchHostFunc), stream, fn, userData);
    }
}
