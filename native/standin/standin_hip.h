/*
 * The HIP runtime entry points the stand-in libamdhip64 exports (test-only; never shipped), with
 * the C signatures of hip_runtime_api.h (ROCm 6.x), and the test hooks. This header is the source of
 * truth for dev.gpureactor.backend.hip.HipRuntime: a test parses every GAR_API declaration below,
 * checks that it resolves in the built library and that the Java FunctionDescriptor of the same
 * name has exactly these C types. One declaration per line.
 *
 * Types as hip_runtime_api.h has them: hipError_t is an enum (int), hipDevice_t is int,
 * hipStream_t and hipCtx_t are pointers, hipDeviceptr_t is void *. hipStreamWriteValue64 takes a
 * uint64_t value in current headers (int64_t in some older ones: the same 64-bit ABI).
 */
#ifndef GAR_STANDIN_HIP_H
#define GAR_STANDIN_HIP_H

#include <stddef.h>
#include <stdint.h>

typedef int hipError_t;
typedef int hipDevice_t;
typedef struct ihipCtx_t *hipCtx_t;
typedef struct ihipStream_t *hipStream_t;
typedef void *hipDeviceptr_t;
typedef void (*hipHostFn_t)(void *userData);

#define GAR_API __attribute__((visibility("default")))

/* ---- runtime entry points ---- */
GAR_API hipError_t hipInit(unsigned int flags);
GAR_API hipError_t hipDriverGetVersion(int *driverVersion);
GAR_API const char *hipGetErrorName(hipError_t hip_error);
GAR_API const char *hipGetErrorString(hipError_t hipError);
GAR_API hipError_t hipGetDeviceCount(int *count);
GAR_API hipError_t hipGetDevice(int *deviceId);
GAR_API hipError_t hipSetDevice(int deviceId);
GAR_API hipError_t hipDeviceGet(hipDevice_t *device, int ordinal);
GAR_API hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device);
GAR_API hipError_t hipDevicePrimaryCtxRetain(hipCtx_t *pctx, hipDevice_t dev);
GAR_API hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev);
GAR_API hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags);
GAR_API hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags);
GAR_API hipError_t hipHostFree(void *ptr);
GAR_API hipError_t hipStreamCreate(hipStream_t *stream);
GAR_API hipError_t hipStreamDestroy(hipStream_t stream);
GAR_API hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t *device);
GAR_API hipError_t hipStreamQuery(hipStream_t stream);
GAR_API hipError_t hipStreamSynchronize(hipStream_t stream);
GAR_API hipError_t hipStreamWriteValue64(hipStream_t stream, void *ptr, uint64_t value, unsigned int flags);
GAR_API hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count, hipStream_t stream);
GAR_API hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *userData);

/* ---- test hooks (stand-in only; the same names and meaning as in standin_cuda.h) ---- */
GAR_API hipError_t gar_standin_launch_sleep(hipStream_t stream, unsigned long long usec);
GAR_API hipError_t gar_standin_launch_spin(hipStream_t stream, unsigned long long usec);
GAR_API hipError_t gar_standin_launch_fail(hipStream_t stream, unsigned long long usec);
GAR_API hipError_t gar_standin_launch_hang(hipStream_t stream);
GAR_API void gar_standin_release_hangs(void);
GAR_API int gar_standin_set(const char *name, long long value);
GAR_API long long gar_standin_counter(const char *name);
GAR_API long long gar_standin_primary_refs(int device);
GAR_API unsigned int gar_standin_last_alloc_flags(void);
GAR_API void gar_standin_reset(void);

#endif
