/* The stand-in libcuda (test-only): the entry points of standin_cuda.h over the stand-in device. */
#define _POSIX_C_SOURCE 200809L
#include "standin_cuda.h"
#include "standin_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CU_MEMHOSTALLOC_PORTABLE 0x01
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04
#define CU_STREAM_LEGACY ((CUstream) 0x1)
#define CU_STREAM_PER_THREAD ((CUstream) 0x2)

__attribute__((constructor)) static void standin_cuda_init(void) { gs_init_from_env(); }

static const struct { int code; const char *name; const char *text; } ERRORS[] = {
    {GS_SUCCESS, "CUDA_SUCCESS", "no error"},
    {GS_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {GS_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {GS_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {GS_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {GS_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {GS_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {GS_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {GS_CONTEXT_IS_DESTROYED, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "context is destroyed"},
    {GS_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {GS_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
};

static CUresult error_text(CUresult error, const char **pStr, int name) {
    if (!pStr) return GS_INVALID_VALUE;
    for (size_t i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++) {
        if (ERRORS[i].code == error) {
            *pStr = name ? ERRORS[i].name : ERRORS[i].text;
            return GS_SUCCESS;
        }
    }
    *pStr = NULL; /* as the driver does for a value it does not know */
    return GS_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult error, const char **pStr) { return error_text(error, pStr, 1); }
CUresult cuGetErrorString(CUresult error, const char **pStr) { return error_text(error, pStr, 0); }

CUresult cuInit(unsigned int Flags) {
    if (Flags != 0) return GS_INVALID_VALUE;
    gs_set_initialized();
    return GS_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion) {
    if (!driverVersion) return GS_INVALID_VALUE;
    *driverVersion = 13000;
    return GS_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
    if (!gs_initialized()) return GS_NOT_INITIALIZED;
    if (!count) return GS_INVALID_VALUE;
    *count = gs_device_count();
    return GS_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    if (!gs_initialized()) return GS_NOT_INITIALIZED;
    if (!device) return GS_INVALID_VALUE;
    if (ordinal < 0 || ordinal >= gs_device_count()) return GS_INVALID_DEVICE;
    *device = ordinal;
    return GS_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
    if (!gs_initialized()) return GS_NOT_INITIALIZED;
    if (!name || len <= 0) return GS_INVALID_VALUE;
    if (dev < 0 || dev >= gs_device_count()) return GS_INVALID_DEVICE;
    snprintf(name, (size_t) len, "GAR stand-in CUDA device %d", dev);
    return GS_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
    if (!gs_initialized()) return GS_NOT_INITIALIZED;
    if (!pi) return GS_INVALID_VALUE;
    if (dev < 0 || dev >= gs_device_count()) return GS_INVALID_DEVICE;
    long long v;
    switch ((int) attrib) {
    case 92: v = gs_fault("attr_92"); break;
    case 93: v = gs_fault("attr_93"); break;
    case 122: v = gs_fault("attr_122"); break;
    default: return GS_INVALID_VALUE;
    }
    if (v < 0) return GS_INVALID_VALUE; /* an attribute this driver does not know */
    *pi = (int) v;
    return GS_SUCCESS;
}

static int memops_enabled(void) {
    long long v2 = gs_fault("attr_122");
    if (v2 >= 0) return v2 != 0;
    return gs_fault("attr_92") != 0 && gs_fault("attr_93") != 0;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
    if (!gs_initialized()) return GS_NOT_INITIALIZED;
    if (!pctx) return GS_INVALID_VALUE;
    int rc = gs_primary_retain(dev);
    if (rc == GS_SUCCESS) *pctx = (CUcontext) (void *) gs_primary(dev);
    return rc;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
    if (!gs_initialized()) return GS_NOT_INITIALIZED;
    return gs_primary_release(dev);
}

/* The scheduling flags (CU_CTX_SCHED_*, CU_CTX_LMEM_RESIZE_TO_MAX): recorded, since a stand-in
 * stream's synchronize always blocks on a condition variable. */
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
    if (!gs_initialized()) return GS_NOT_INITIALIZED;
    if (dev < 0 || dev >= gs_device_count()) return GS_INVALID_DEVICE;
    if (flags & ~0x1fu) return GS_INVALID_VALUE;
    gs_count("primary_set_flags", 1);
    return GS_SUCCESS;
}

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev) {
    (void) ctxCreateParams;
    if (!gs_initialized()) return GS_NOT_INITIALIZED;
    if (!pctx || flags > 0xff) return GS_INVALID_VALUE;
    gs_ctx *c = gs_ctx_create(dev);
    if (!c) return GS_INVALID_DEVICE;
    gs_push_current(c); /* cuCtxCreate makes the new context current */
    *pctx = (CUcontext) (void *) c;
    return GS_SUCCESS;
}

CUresult cuCtxDestroy_v2(CUcontext ctx) {
    gs_ctx *c = (gs_ctx *) (void *) ctx;
    if (!c) return GS_INVALID_VALUE;
    if (c == gs_current()) {
        int ok;
        gs_pop_current(&ok);
    }
    return gs_ctx_destroy(c);
}

CUresult cuCtxGetCurrent(CUcontext *pctx) {
    if (!pctx) return GS_INVALID_VALUE;
    *pctx = (CUcontext) (void *) gs_current();
    return GS_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
    gs_set_current((gs_ctx *) (void *) ctx);
    return GS_SUCCESS;
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
    if (!ctx) return GS_INVALID_VALUE;
    return gs_push_current((gs_ctx *) (void *) ctx);
}

CUresult cuCtxPopCurrent_v2(CUcontext *pctx) {
    int ok;
    gs_ctx *c = gs_pop_current(&ok);
    if (!ok) return GS_INVALID_CONTEXT;
    if (pctx) *pctx = (CUcontext) (void *) c;
    return GS_SUCCESS;
}

/* The current context, or the status a driver call without a usable one returns. */
static int current_ctx(gs_ctx **out) {
    gs_ctx *c = gs_current();
    if (!c) return GS_INVALID_CONTEXT;
    if (!gs_ctx_alive(c)) return GS_CONTEXT_IS_DESTROYED;
    *out = c;
    return GS_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *device) {
    if (!device) return GS_INVALID_VALUE;
    gs_ctx *c;
    int rc = current_ctx(&c);
    if (rc != GS_SUCCESS) return rc;
    *device = gs_ctx_device(c);
    return GS_SUCCESS;
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags) {
    gs_ctx *c;
    int rc = current_ctx(&c);
    if (rc != GS_SUCCESS) return rc;
    if (Flags & ~(unsigned) (CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED))
        return GS_INVALID_VALUE;
    return gs_host_alloc(c, pp, bytesize, Flags, (Flags & CU_MEMHOSTALLOC_DEVICEMAP) != 0);
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags) {
    gs_ctx *c;
    int rc = current_ctx(&c);
    if (rc != GS_SUCCESS) return rc;
    if (Flags != 0 || !pdptr) return GS_INVALID_VALUE;
    uint64_t d;
    rc = gs_host_device_pointer(&d, p);
    if (rc == GS_SUCCESS) *pdptr = (CUdeviceptr) d;
    return rc;
}

CUresult cuMemFreeHost(void *p) {
    gs_ctx *c;
    int rc = current_ctx(&c);
    if (rc != GS_SUCCESS) return rc;
    return gs_host_free(p);
}

static gs_stream *stream_of(CUstream h, int *rc) {
    if (h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD) h = NULL;
    gs_stream *s = gs_stream_resolve((void *) h, rc);
    if (s && !gs_ctx_alive(gs_stream_ctx(s))) {
        *rc = GS_CONTEXT_IS_DESTROYED;
        return NULL;
    }
    return s;
}

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
    gs_ctx *c;
    int rc = current_ctx(&c);
    if (rc != GS_SUCCESS) return rc;
    if (!phStream || Flags > 1) return GS_INVALID_VALUE;
    gs_stream *s;
    rc = gs_stream_create(&s, c);
    if (rc == GS_SUCCESS) *phStream = (CUstream) (void *) s;
    return rc;
}

CUresult cuStreamDestroy_v2(CUstream hStream) {
    if (!hStream || hStream == CU_STREAM_LEGACY || hStream == CU_STREAM_PER_THREAD) return GS_INVALID_HANDLE;
    return gs_stream_destroy((gs_stream *) (void *) hStream);
}

CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx) {
    if (!pctx) return GS_INVALID_VALUE;
    int rc;
    gs_stream *s = stream_of(hStream, &rc);
    if (!s) return rc;
    *pctx = (CUcontext) (void *) gs_stream_ctx(s);
    return GS_SUCCESS;
}

CUresult cuStreamQuery(CUstream hStream) {
    int rc;
    gs_stream *s = stream_of(hStream, &rc);
    return s ? gs_stream_query(s) : rc;
}

CUresult cuStreamSynchronize(CUstream hStream) {
    int rc;
    gs_stream *s = stream_of(hStream, &rc);
    return s ? gs_stream_sync(s) : rc;
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
    int rc;
    gs_stream *s = stream_of(hStream, &rc);
    return s ? gs_enqueue_memset(s, dstDevice, uc, N) : rc;
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData) {
    int rc;
    gs_stream *s = stream_of(hStream, &rc);
    return s ? gs_enqueue_hostfn(s, fn, userData) : rc;
}

static CUresult write_value64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags, unsigned allowed) {
    if (flags & ~allowed) return GS_INVALID_VALUE;
    if (!memops_enabled()) return GS_NOT_SUPPORTED;
    int rc;
    gs_stream *s = stream_of(stream, &rc);
    return s ? gs_enqueue_write64(s, addr, value) : rc;
}

CUresult cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags) {
    gs_count("write_value_v1", 1);
    return write_value64(stream, addr, value, flags, 1u /* CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER */);
}

#ifndef GAR_STANDIN_NO_V2
CUresult cuStreamWriteValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags) {
    gs_count("write_value", 1);
    return write_value64(stream, addr, value, flags, 0u /* the v2 API has no NO_MEMORY_BARRIER */);
}
#endif

/* The stream stands still until the word at addr passes the test of flags' low bits
 * (CU_STREAM_WAIT_VALUE_GEQ 0, EQ 1, AND 2, NOR 3; FLUSH 1<<30 is accepted and needs nothing here). */
CUresult cuStreamWaitValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags) {
    if (flags & ~(3u | (1u << 30))) return GS_INVALID_VALUE;
    if (!memops_enabled()) return GS_NOT_SUPPORTED;
    gs_count("wait_value", 1);
    int rc;
    gs_stream *s = stream_of(stream, &rc);
    return s ? gs_enqueue_wait64(s, addr, value, (int) (flags & 3u)) : rc;
}

/* ---- test hooks (standin_core.h) ---- */

GS_TEST_HOOKS(CUresult, CUstream)

/* ---- modules and kernels (emulated by name) ---- */

#define MODULE_MAGIC 0x6761726d6f64ULL /* "garmod" */
#define FATBIN_MAGIC 0xBA55ED50u

struct CUmod_st { unsigned long long magic; const unsigned char *image; size_t size; };
struct CUfunc_st { int kind; const char *name; };
static struct CUfunc_st SPIN_NS = {1, "gar_spin_ns"};
static struct CUfunc_st WRITE_BYTE = {2, "gar_write_byte"};

/* The image's size: a fatbin says it in its header (magic, version, header size, fat size); an ELF cubin's
   section headers end it. 0: not an image this stand-in knows. */
static size_t image_size(const unsigned char *p) {
    uint32_t magic;
    memcpy(&magic, p, 4);
    if (magic == FATBIN_MAGIC) {
        uint16_t header;
        uint64_t fat;
        memcpy(&header, p + 6, 2);
        memcpy(&fat, p + 8, 8);
        return (size_t) header + (size_t) fat;
    }
    if (p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F' && p[4] == 2) {
        uint64_t shoff;
        uint16_t shentsize, shnum;
        memcpy(&shoff, p + 0x28, 8);
        memcpy(&shentsize, p + 0x3A, 2);
        memcpy(&shnum, p + 0x3C, 2);
        return (size_t) (shoff + (uint64_t) shentsize * shnum);
    }
    return 0;
}

static int contains(const unsigned char *hay, size_t n, const char *needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++) {
        if (memcmp(hay + i, needle, k) == 0) return 1;
    }
    return 0;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
    if (!module || !image) return GS_INVALID_VALUE;
    if (!gs_current()) return GS_INVALID_CONTEXT;
    size_t size = image_size(image);
    if (size == 0) return 200; /* CUDA_ERROR_INVALID_IMAGE */
    if (gs_fault("no_binary")) return 209; /* CUDA_ERROR_NO_BINARY_FOR_GPU */
    struct CUmod_st *m = malloc(sizeof *m);
    if (!m) return GS_OUT_OF_MEMORY;
    m->magic = MODULE_MAGIC;
    m->image = malloc(size);
    if (!m->image) { free(m); return GS_OUT_OF_MEMORY; }
    memcpy((void *) m->image, image, size); /* the driver keeps its own copy: the caller may free the image */
    m->size = size;
    *module = m;
    gs_count("module_load", 1);
    return GS_SUCCESS;
}

CUresult cuModuleUnload(CUmodule hmod) {
    if (!hmod || hmod->magic != MODULE_MAGIC) return GS_INVALID_HANDLE;
    hmod->magic = 0;
    free((void *) hmod->image);
    free(hmod);
    gs_count("module_unload", 1);
    return GS_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) {
    if (!hfunc || !name) return GS_INVALID_VALUE;
    if (!hmod || hmod->magic != MODULE_MAGIC) return GS_INVALID_HANDLE;
    struct CUfunc_st *f = strcmp(name, SPIN_NS.name) == 0 ? &SPIN_NS : strcmp(name, WRITE_BYTE.name) == 0 ? &WRITE_BYTE : NULL;
    if (!f || !contains(hmod->image, hmod->size, name)) return 500; /* CUDA_ERROR_NOT_FOUND */
    *hfunc = f;
    return GS_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra) {
    (void) sharedMemBytes;
    if (f != &SPIN_NS && f != &WRITE_BYTE) return GS_INVALID_HANDLE;
    if (!gridDimX || !gridDimY || !gridDimZ || !blockDimX || !blockDimY || !blockDimZ) return GS_INVALID_VALUE;
    if (!kernelParams || extra) return GS_INVALID_VALUE; /* the stand-in takes kernelParams only */
    int rc;
    gs_stream *s = stream_of(hStream, &rc);
    if (!s) return rc;
    gs_count("kernel_launch", 1);
    if (f == &SPIN_NS) {
        unsigned long long ns = *(unsigned long long *) kernelParams[0];
        return gs_enqueue_sleep(s, ns / 1000);
    }
    CUdeviceptr dst = *(CUdeviceptr *) kernelParams[0];
    unsigned char value = *(unsigned char *) kernelParams[1];
    return gs_enqueue_memset(s, dst, value, 1);
}
