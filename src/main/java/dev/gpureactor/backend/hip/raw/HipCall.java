package dev.gpureactor.backend.hip.raw;

import dev.gpureactor.backend.DriverCall;
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

import java.lang.foreign.FunctionDescriptor;

/**
 * Every function {@link HipRuntime} binds in the HIP runtime, in header order: a constant's name is the
 * library's symbol (hence the C spelling), its descriptor the jextract-generated one. The binding
 * resolves each once, into the slot of the constant's ordinal.
 */
public enum HipCall implements DriverCall {
    hipInit(hipInit_fn.descriptor()),
    hipDriverGetVersion(hipDriverGetVersion_fn.descriptor()),
    hipGetErrorName(hipGetErrorName_fn.descriptor()),
    hipGetErrorString(hipGetErrorString_fn.descriptor()),
    hipGetDeviceCount(hipGetDeviceCount_fn.descriptor()),
    hipGetDevice(hipGetDevice_fn.descriptor()),
    hipSetDevice(hipSetDevice_fn.descriptor()),
    hipDeviceGet(hipDeviceGet_fn.descriptor()),
    hipDeviceGetName(hipDeviceGetName_fn.descriptor()),
    hipDevicePrimaryCtxRetain(hipDevicePrimaryCtxRetain_fn.descriptor()),
    hipDevicePrimaryCtxRelease(hipDevicePrimaryCtxRelease_fn.descriptor()),
    hipHostMalloc(hipHostMalloc_fn.descriptor()),
    hipHostGetDevicePointer(hipHostGetDevicePointer_fn.descriptor()),
    hipHostFree(hipHostFree_fn.descriptor()),
    hipStreamCreate(hipStreamCreate_fn.descriptor()),
    hipStreamDestroy(hipStreamDestroy_fn.descriptor()),
    hipStreamGetDevice(hipStreamGetDevice_fn.descriptor()),
    hipStreamQuery(hipStreamQuery_fn.descriptor()),
    hipStreamSynchronize(hipStreamSynchronize_fn.descriptor()),
    hipStreamWriteValue64(hipStreamWriteValue64_fn.descriptor()),
    hipMemsetD8Async(hipMemsetD8Async_fn.descriptor()),
    hipLaunchHostFunc(hipLaunchHostFunc_fn.descriptor());

    private final FunctionDescriptor descriptor;

    HipCall(FunctionDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    @Override
    public FunctionDescriptor descriptor() { return descriptor; }
}
