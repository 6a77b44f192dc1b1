/*
 * The CUDA driver entry points the stand-in libcuda exports (test-only; never shipped), with the
 * exact C signatures of cuda.h (CUDA 13.0), and the test hooks. This header is the source of truth
 * for dev.gpureactor.backend.cuda.CudaDriver: a test parses every GAR_API declaration below, checks
 * that it resolves in the built library and that the Java FunctionDescriptor of the same name has
 * exactly these C types. Where a real cuda.h is found, build.sh also compiles this header against it
 * (GAR_STANDIN_WITH_CUDA_H), so a signature that drifts from NVIDIA's fails the build.
 *
 * Names are the ABI names cuda.h binds its API names to: cuMemHostGetDevicePointer is
 * cuMemHostGetDevicePointer_v2, cuStreamWriteValue64 is cuStreamWriteValue64_v2, and so on.
 * One declaration per line.
 */
#ifndef GAR_STANDIN_CUDA_H
#define GAR_STANDIN_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef GAR_STANDIN_WITH_CUDA_H
#include <cuda.h>
#else
typedef int CUresult;                  /* enum cudaError_enum */
typedef int CUdevice;                  /* CUdevice_v1 */
typedef int CUdevice_attribute;        /* enum CUdevice_attribute_enum */
typedef unsigned long long CUdeviceptr; /* CUdeviceptr_v2 */
typedef uint64_t cuuint64_t;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUctxCreateParams_st CUctxCreateParams;
typedef void (*CUhostFn)(void *userData);
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
#endif

#define GAR_API __attribute__((visibility("default")))

/* ---- driver entry points ---- */
GAR_API CUresult cuInit(unsigned int Flags);
GAR_API CUresult cuDriverGetVersion(int *driverVersion);
GAR_API CUresult cuGetErrorName(CUresult error, const char **pStr);
GAR_API CUresult cuGetErrorString(CUresult error, const char **pStr);
GAR_API CUresult cuDeviceGetCount(int *count);
GAR_API CUresult cuDeviceGet(CUdevice *device, int ordinal);
GAR_API CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
GAR_API CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
GAR_API CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
GAR_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
GAR_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags);
GAR_API CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev);
GAR_API CUresult cuCtxDestroy_v2(CUcontext ctx);
GAR_API CUresult cuCtxGetCurrent(CUcontext *pctx);
GAR_API CUresult cuCtxSetCurrent(CUcontext ctx);
GAR_API CUresult cuCtxPushCurrent_v2(CUcontext ctx);
GAR_API CUresult cuCtxPopCurrent_v2(CUcontext *pctx);
GAR_API CUresult cuCtxGetDevice(CUdevice *device);
GAR_API CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
GAR_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags);
GAR_API CUresult cuMemFreeHost(void *p);
GAR_API CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags);
GAR_API CUresult cuStreamDestroy_v2(CUstream hStream);
GAR_API CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx);
GAR_API CUresult cuStreamQuery(CUstream hStream);
GAR_API CUresult cuStreamSynchronize(CUstream hStream);
GAR_API CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
GAR_API CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
/* Modules and kernels: the stand-in accepts a fatbin (or ELF cubin) image and emulates the kernels of
   native/kernels/gar_kernels.cu by name on its stream threads (gar_spin_ns sleeps, gar_write_byte stores). */
GAR_API CUresult cuModuleLoadData(CUmodule *module, const void *image);
GAR_API CUresult cuModuleUnload(CUmodule hmod);
GAR_API CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
GAR_API CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);
/* The legacy (v1) write-value, which old drivers export; the binding must never call it. */
GAR_API CUresult cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
#ifndef GAR_STANDIN_NO_V2
/* Absent from libcuda-standin-nov2.so, which stands in for a driver without the v2 memop API. */
GAR_API CUresult cuStreamWriteValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
#endif
GAR_API CUresult cuStreamWaitValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);

/* ---- test hooks (stand-in only) ---- */
/* A "kernel" that sleeps, spins, fails (CUDA_ERROR_LAUNCH_FAILED after usec) or hangs until released. */
GAR_API CUresult gar_standin_launch_sleep(CUstream stream, unsigned long long usec);
GAR_API CUresult gar_standin_launch_spin(CUstream stream, unsigned long long usec);
GAR_API CUresult gar_standin_launch_fail(CUstream stream, unsigned long long usec);
GAR_API CUresult gar_standin_launch_hang(CUstream stream);
GAR_API void gar_standin_release_hangs(void);
/* Faults: fail_alloc, attr_122 (-1: unknown attribute), attr_92, attr_93, devices, no_binary (cuModuleLoadData
   answers CUDA_ERROR_NO_BINARY_FOR_GPU, as a driver whose GPU the image has no code for). Returns a status. */
GAR_API int gar_standin_set(const char *name, long long value);
GAR_API long long gar_standin_counter(const char *name);
GAR_API long long gar_standin_primary_refs(int device);
GAR_API unsigned int gar_standin_last_alloc_flags(void);
/* Faults back to their defaults and counters to 0 (contexts, streams and allocations stay). */
GAR_API void gar_standin_reset(void);

#endif
