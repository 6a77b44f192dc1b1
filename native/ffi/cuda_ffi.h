/*
 * The CUDA driver entry points the backend binds, as function-pointer types, for jextract
 * (scripts/jextract.sh -> dev.gpureactor.backend.cuda.ffi). Symbols are cuda.h's ABI names (_v2, ...).
 *
 * jextract binds a function to a symbol at class initialisation through one lookup fixed at generation
 * time; this library is chosen at run time (gar.cuda.library) and several can be loaded at once (the stand-ins).
 * A function-pointer typedef makes jextract generate the exact FunctionDescriptor and an address-taking
 * invoke(funcPtr, ...) with no lookup, so the typed layer supplies each address from the library it
 * loaded. Each typedef must be the exact type of its function: with GAR_FFI_CHECK every function is
 * assigned to its typedef, which the native build compiles with -Werror against the real header when
 * it is found (a mismatch does not build). One typedef per entry point the backend binds, no more.
 */
#ifndef GAR_CUDA_FFI_H
#define GAR_CUDA_FFI_H

#include <cuda.h>

typedef CUresult (*cuInit_fn)(unsigned int Flags);
typedef CUresult (*cuDriverGetVersion_fn)(int *driverVersion);
typedef CUresult (*cuGetErrorName_fn)(CUresult error, const char **pStr);
typedef CUresult (*cuGetErrorString_fn)(CUresult error, const char **pStr);
typedef CUresult (*cuDeviceGetCount_fn)(int *count);
typedef CUresult (*cuDeviceGet_fn)(CUdevice *device, int ordinal);
typedef CUresult (*cuDeviceGetName_fn)(char *name, int len, CUdevice dev);
typedef CUresult (*cuDeviceGetAttribute_fn)(int *pi, CUdevice_attribute attrib, CUdevice dev);
typedef CUresult (*cuDevicePrimaryCtxRetain_fn)(CUcontext *pctx, CUdevice dev);
typedef CUresult (*cuDevicePrimaryCtxRelease_v2_fn)(CUdevice dev);
typedef CUresult (*cuDevicePrimaryCtxSetFlags_v2_fn)(CUdevice dev, unsigned int flags);
typedef CUresult (*cuCtxCreate_v4_fn)(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev);
typedef CUresult (*cuCtxDestroy_v2_fn)(CUcontext ctx);
typedef CUresult (*cuCtxGetCurrent_fn)(CUcontext *pctx);
typedef CUresult (*cuCtxSetCurrent_fn)(CUcontext ctx);
typedef CUresult (*cuCtxPushCurrent_v2_fn)(CUcontext ctx);
typedef CUresult (*cuCtxPopCurrent_v2_fn)(CUcontext *pctx);
typedef CUresult (*cuCtxGetDevice_fn)(CUdevice *device);
typedef CUresult (*cuMemHostAlloc_fn)(void **pp, size_t bytesize, unsigned int Flags);
typedef CUresult (*cuMemHostGetDevicePointer_v2_fn)(CUdeviceptr *pdptr, void *p, unsigned int Flags);
typedef CUresult (*cuMemFreeHost_fn)(void *p);
typedef CUresult (*cuStreamCreate_fn)(CUstream *phStream, unsigned int Flags);
typedef CUresult (*cuStreamDestroy_v2_fn)(CUstream hStream);
typedef CUresult (*cuStreamGetCtx_fn)(CUstream hStream, CUcontext *pctx);
typedef CUresult (*cuStreamQuery_fn)(CUstream hStream);
typedef CUresult (*cuStreamSynchronize_fn)(CUstream hStream);
typedef CUresult (*cuMemsetD8Async_fn)(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
typedef CUresult (*cuLaunchHostFunc_fn)(CUstream hStream, CUhostFn fn, void *userData);
typedef CUresult (*cuModuleLoadData_fn)(CUmodule *module, const void *image);
typedef CUresult (*cuModuleUnload_fn)(CUmodule hmod);
typedef CUresult (*cuModuleGetFunction_fn)(CUfunction *hfunc, CUmodule hmod, const char *name);
typedef CUresult (*cuLaunchKernel_fn)(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);
typedef CUresult (*cuStreamWriteValue64_v2_fn)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
typedef CUresult (*cuStreamWaitValue64_v2_fn)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);

#ifdef GAR_FFI_CHECK
cuInit_fn gar_ffi_check_cuInit = cuInit;
cuDriverGetVersion_fn gar_ffi_check_cuDriverGetVersion = cuDriverGetVersion;
cuGetErrorName_fn gar_ffi_check_cuGetErrorName = cuGetErrorName;
cuGetErrorString_fn gar_ffi_check_cuGetErrorString = cuGetErrorString;
cuDeviceGetCount_fn gar_ffi_check_cuDeviceGetCount = cuDeviceGetCount;
cuDeviceGet_fn gar_ffi_check_cuDeviceGet = cuDeviceGet;
cuDeviceGetName_fn gar_ffi_check_cuDeviceGetName = cuDeviceGetName;
cuDeviceGetAttribute_fn gar_ffi_check_cuDeviceGetAttribute = cuDeviceGetAttribute;
cuDevicePrimaryCtxRetain_fn gar_ffi_check_cuDevicePrimaryCtxRetain = cuDevicePrimaryCtxRetain;
cuDevicePrimaryCtxRelease_v2_fn gar_ffi_check_cuDevicePrimaryCtxRelease_v2 = cuDevicePrimaryCtxRelease_v2;
cuDevicePrimaryCtxSetFlags_v2_fn gar_ffi_check_cuDevicePrimaryCtxSetFlags_v2 = cuDevicePrimaryCtxSetFlags_v2;
cuCtxCreate_v4_fn gar_ffi_check_cuCtxCreate_v4 = cuCtxCreate_v4;
cuCtxDestroy_v2_fn gar_ffi_check_cuCtxDestroy_v2 = cuCtxDestroy_v2;
cuCtxGetCurrent_fn gar_ffi_check_cuCtxGetCurrent = cuCtxGetCurrent;
cuCtxSetCurrent_fn gar_ffi_check_cuCtxSetCurrent = cuCtxSetCurrent;
cuCtxPushCurrent_v2_fn gar_ffi_check_cuCtxPushCurrent_v2 = cuCtxPushCurrent_v2;
cuCtxPopCurrent_v2_fn gar_ffi_check_cuCtxPopCurrent_v2 = cuCtxPopCurrent_v2;
cuCtxGetDevice_fn gar_ffi_check_cuCtxGetDevice = cuCtxGetDevice;
cuMemHostAlloc_fn gar_ffi_check_cuMemHostAlloc = cuMemHostAlloc;
cuMemHostGetDevicePointer_v2_fn gar_ffi_check_cuMemHostGetDevicePointer_v2 = cuMemHostGetDevicePointer_v2;
cuMemFreeHost_fn gar_ffi_check_cuMemFreeHost = cuMemFreeHost;
cuStreamCreate_fn gar_ffi_check_cuStreamCreate = cuStreamCreate;
cuStreamDestroy_v2_fn gar_ffi_check_cuStreamDestroy_v2 = cuStreamDestroy_v2;
cuStreamGetCtx_fn gar_ffi_check_cuStreamGetCtx = cuStreamGetCtx;
cuStreamQuery_fn gar_ffi_check_cuStreamQuery = cuStreamQuery;
cuStreamSynchronize_fn gar_ffi_check_cuStreamSynchronize = cuStreamSynchronize;
cuMemsetD8Async_fn gar_ffi_check_cuMemsetD8Async = cuMemsetD8Async;
cuLaunchHostFunc_fn gar_ffi_check_cuLaunchHostFunc = cuLaunchHostFunc;
cuModuleLoadData_fn gar_ffi_check_cuModuleLoadData = cuModuleLoadData;
cuModuleUnload_fn gar_ffi_check_cuModuleUnload = cuModuleUnload;
cuModuleGetFunction_fn gar_ffi_check_cuModuleGetFunction = cuModuleGetFunction;
cuLaunchKernel_fn gar_ffi_check_cuLaunchKernel = cuLaunchKernel;
cuStreamWriteValue64_v2_fn gar_ffi_check_cuStreamWriteValue64_v2 = cuStreamWriteValue64_v2;
cuStreamWaitValue64_v2_fn gar_ffi_check_cuStreamWaitValue64_v2 = cuStreamWaitValue64_v2;
#endif

#endif
