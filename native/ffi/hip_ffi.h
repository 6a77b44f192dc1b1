/*
 * The HIP runtime entry points the backend binds, as function-pointer types, for jextract
 * (scripts/jextract.sh -> dev.gpureactor.backend.hip.ffi; -D__HIP_PLATFORM_AMD__).
 *
 * jextract binds a function to a symbol at class initialisation through one lookup fixed at generation
 * time; this library is chosen at run time (gar.hip.library) and several can be loaded at once (the stand-ins).
 * A function-pointer typedef makes jextract generate the exact FunctionDescriptor and an address-taking
 * invoke(funcPtr, ...) with no lookup, so the typed layer supplies each address from the library it
 * loaded. Each typedef must be the exact type of its function: with GAR_FFI_CHECK every function is
 * assigned to its typedef, which the native build compiles with -Werror against the real header when
 * it is found (a mismatch does not build). One typedef per entry point the backend binds, no more.
 */
#ifndef GAR_HIP_FFI_H
#define GAR_HIP_FFI_H

#include <hip/hip_runtime_api.h>

typedef hipError_t (*hipInit_fn)(unsigned int flags);
typedef hipError_t (*hipDriverGetVersion_fn)(int *driverVersion);
typedef const char * (*hipGetErrorName_fn)(hipError_t hip_error);
typedef const char * (*hipGetErrorString_fn)(hipError_t hipError);
typedef hipError_t (*hipGetDeviceCount_fn)(int *count);
typedef hipError_t (*hipGetDevice_fn)(int *deviceId);
typedef hipError_t (*hipSetDevice_fn)(int deviceId);
typedef hipError_t (*hipDeviceGet_fn)(hipDevice_t *device, int ordinal);
typedef hipError_t (*hipDeviceGetName_fn)(char *name, int len, hipDevice_t device);
typedef hipError_t (*hipDevicePrimaryCtxRetain_fn)(hipCtx_t *pctx, hipDevice_t dev);
typedef hipError_t (*hipDevicePrimaryCtxRelease_fn)(hipDevice_t dev);
typedef hipError_t (*hipHostMalloc_fn)(void **ptr, size_t size, unsigned int flags);
typedef hipError_t (*hipHostGetDevicePointer_fn)(void **devPtr, void *hstPtr, unsigned int flags);
typedef hipError_t (*hipHostFree_fn)(void *ptr);
typedef hipError_t (*hipStreamCreate_fn)(hipStream_t *stream);
typedef hipError_t (*hipStreamDestroy_fn)(hipStream_t stream);
typedef hipError_t (*hipStreamGetDevice_fn)(hipStream_t stream, hipDevice_t *device);
typedef hipError_t (*hipStreamQuery_fn)(hipStream_t stream);
typedef hipError_t (*hipStreamSynchronize_fn)(hipStream_t stream);
typedef hipError_t (*hipStreamWriteValue64_fn)(hipStream_t stream, void *ptr, uint64_t value, unsigned int flags);
typedef hipError_t (*hipMemsetD8Async_fn)(hipDeviceptr_t dest, unsigned char value, size_t count, hipStream_t stream);
typedef hipError_t (*hipLaunchHostFunc_fn)(hipStream_t stream, hipHostFn_t fn, void *userData);

#ifdef GAR_FFI_CHECK
hipInit_fn gar_ffi_check_hipInit = hipInit;
hipDriverGetVersion_fn gar_ffi_check_hipDriverGetVersion = hipDriverGetVersion;
hipGetErrorName_fn gar_ffi_check_hipGetErrorName = hipGetErrorName;
hipGetErrorString_fn gar_ffi_check_hipGetErrorString = hipGetErrorString;
hipGetDeviceCount_fn gar_ffi_check_hipGetDeviceCount = hipGetDeviceCount;
hipGetDevice_fn gar_ffi_check_hipGetDevice = hipGetDevice;
hipSetDevice_fn gar_ffi_check_hipSetDevice = hipSetDevice;
hipDeviceGet_fn gar_ffi_check_hipDeviceGet = hipDeviceGet;
hipDeviceGetName_fn gar_ffi_check_hipDeviceGetName = hipDeviceGetName;
hipDevicePrimaryCtxRetain_fn gar_ffi_check_hipDevicePrimaryCtxRetain = hipDevicePrimaryCtxRetain;
hipDevicePrimaryCtxRelease_fn gar_ffi_check_hipDevicePrimaryCtxRelease = hipDevicePrimaryCtxRelease;
hipHostMalloc_fn gar_ffi_check_hipHostMalloc = hipHostMalloc;
hipHostGetDevicePointer_fn gar_ffi_check_hipHostGetDevicePointer = hipHostGetDevicePointer;
hipHostFree_fn gar_ffi_check_hipHostFree = hipHostFree;
hipStreamCreate_fn gar_ffi_check_hipStreamCreate = hipStreamCreate;
hipStreamDestroy_fn gar_ffi_check_hipStreamDestroy = hipStreamDestroy;
/* hipStreamGetDevice: not declared by ROCm 5.2's header (a later ROCm has it; libamdhip64.so.5 lacks it),
   so its typedef, ROCm 6's prototype, is not checked here. */
hipStreamQuery_fn gar_ffi_check_hipStreamQuery = hipStreamQuery;
hipStreamSynchronize_fn gar_ffi_check_hipStreamSynchronize = hipStreamSynchronize;
hipStreamWriteValue64_fn gar_ffi_check_hipStreamWriteValue64 = hipStreamWriteValue64;
hipMemsetD8Async_fn gar_ffi_check_hipMemsetD8Async = hipMemsetD8Async;
hipLaunchHostFunc_fn gar_ffi_check_hipLaunchHostFunc = hipLaunchHostFunc;
#endif

#endif
