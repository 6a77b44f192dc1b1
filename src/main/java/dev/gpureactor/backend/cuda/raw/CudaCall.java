package dev.gpureactor.backend.cuda.raw;

import dev.gpureactor.backend.DriverCall;
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

import java.lang.foreign.FunctionDescriptor;

/**
 * Every function {@link CudaDriver} binds in the CUDA driver API, in header order: a constant's name is the
 * library's symbol (hence the C spelling), its descriptor the jextract-generated one. The binding
 * resolves each once, into the slot of the constant's ordinal.
 */
public enum CudaCall implements DriverCall {
    cuInit(cuInit_fn.descriptor()),
    cuDriverGetVersion(cuDriverGetVersion_fn.descriptor()),
    cuGetErrorName(cuGetErrorName_fn.descriptor()),
    cuGetErrorString(cuGetErrorString_fn.descriptor()),
    cuDeviceGetCount(cuDeviceGetCount_fn.descriptor()),
    cuDeviceGet(cuDeviceGet_fn.descriptor()),
    cuDeviceGetName(cuDeviceGetName_fn.descriptor()),
    cuDeviceGetAttribute(cuDeviceGetAttribute_fn.descriptor()),
    cuDevicePrimaryCtxRetain(cuDevicePrimaryCtxRetain_fn.descriptor()),
    cuDevicePrimaryCtxRelease_v2(cuDevicePrimaryCtxRelease_v2_fn.descriptor()),
    cuDevicePrimaryCtxSetFlags_v2(cuDevicePrimaryCtxSetFlags_v2_fn.descriptor()),
    cuCtxCreate_v4(cuCtxCreate_v4_fn.descriptor()),
    cuCtxDestroy_v2(cuCtxDestroy_v2_fn.descriptor()),
    cuCtxGetCurrent(cuCtxGetCurrent_fn.descriptor()),
    cuCtxSetCurrent(cuCtxSetCurrent_fn.descriptor()),
    cuCtxPushCurrent_v2(cuCtxPushCurrent_v2_fn.descriptor()),
    cuCtxPopCurrent_v2(cuCtxPopCurrent_v2_fn.descriptor()),
    cuCtxGetDevice(cuCtxGetDevice_fn.descriptor()),
    cuMemHostAlloc(cuMemHostAlloc_fn.descriptor()),
    cuMemHostGetDevicePointer_v2(cuMemHostGetDevicePointer_v2_fn.descriptor()),
    cuMemFreeHost(cuMemFreeHost_fn.descriptor()),
    cuStreamCreate(cuStreamCreate_fn.descriptor()),
    cuStreamDestroy_v2(cuStreamDestroy_v2_fn.descriptor()),
    cuStreamGetCtx(cuStreamGetCtx_fn.descriptor()),
    cuStreamQuery(cuStreamQuery_fn.descriptor()),
    cuStreamSynchronize(cuStreamSynchronize_fn.descriptor()),
    cuMemsetD8Async(cuMemsetD8Async_fn.descriptor()),
    cuLaunchHostFunc(cuLaunchHostFunc_fn.descriptor()),
    cuModuleLoadData(cuModuleLoadData_fn.descriptor()),
    cuModuleUnload(cuModuleUnload_fn.descriptor()),
    cuModuleGetFunction(cuModuleGetFunction_fn.descriptor()),
    cuLaunchKernel(cuLaunchKernel_fn.descriptor()),
    cuStreamWriteValue64_v2(cuStreamWriteValue64_v2_fn.descriptor()),
    cuStreamWaitValue64_v2(cuStreamWaitValue64_v2_fn.descriptor());

    private final FunctionDescriptor descriptor;

    CudaCall(FunctionDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    @Override
    public FunctionDescriptor descriptor() { return descriptor; }
}
