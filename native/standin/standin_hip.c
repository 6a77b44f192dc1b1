/* The stand-in libamdhip64 (test-only): the entry points of standin_hip.h over the stand-in device. */
#define _POSIX_C_SOURCE 200809L
#include "standin_hip.h"
#include "standin_core.h"

#include <stdio.h>

#define hipHostMallocPortable 0x1u
#define hipHostMallocMapped 0x2u
#define hipHostMallocWriteCombined 0x4u
#define hipHostMallocNumaUser 0x20000000u
#define hipHostMallocCoherent 0x40000000u
#define hipHostMallocNonCoherent 0x80000000u

__attribute__((constructor)) static void standin_hip_init(void) {
    gs_init_from_env();
    gs_set_initialized(); /* the HIP runtime initializes itself on first use */
}

static __thread int tl_device;

static const struct { int code; const char *name; const char *text; } ERRORS[] = {
    {GS_SUCCESS, "hipSuccess", "no error"},
    {GS_INVALID_VALUE, "hipErrorInvalidValue", "invalid argument"},
    {GS_OUT_OF_MEMORY, "hipErrorOutOfMemory", "out of memory"},
    {GS_NOT_INITIALIZED, "hipErrorNotInitialized", "initialization error"},
    {GS_INVALID_DEVICE, "hipErrorInvalidDevice", "invalid device ordinal"},
    {GS_INVALID_CONTEXT, "hipErrorInvalidContext", "invalid device context"},
    {GS_INVALID_HANDLE, "hipErrorInvalidHandle", "invalid resource handle"},
    {GS_NOT_READY, "hipErrorNotReady", "device not ready"},
    {GS_CONTEXT_IS_DESTROYED, "hipErrorContextIsDestroyed", "context is destroyed"},
    {GS_LAUNCH_FAILED, "hipErrorLaunchFailure", "unspecified launch failure"},
    {GS_NOT_SUPPORTED, "hipErrorNotSupported", "operation not supported"},
};

static const char *error_text(hipError_t e, int name) {
    for (size_t i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++)
        if (ERRORS[i].code == e) return name ? ERRORS[i].name : ERRORS[i].text;
    return name ? "hipErrorUnknown" : "unknown error";
}

const char *hipGetErrorName(hipError_t hip_error) { return error_text(hip_error, 1); }
const char *hipGetErrorString(hipError_t hipError) { return error_text(hipError, 0); }

hipError_t hipInit(unsigned int flags) { return flags == 0 ? GS_SUCCESS : GS_INVALID_VALUE; }

hipError_t hipDriverGetVersion(int *driverVersion) {
    if (!driverVersion) return GS_INVALID_VALUE;
    *driverVersion = 60443000;
    return GS_SUCCESS;
}

hipError_t hipGetDeviceCount(int *count) {
    if (!count) return GS_INVALID_VALUE;
    *count = gs_device_count();
    return GS_SUCCESS;
}

hipError_t hipGetDevice(int *deviceId) {
    if (!deviceId) return GS_INVALID_VALUE;
    *deviceId = tl_device;
    return GS_SUCCESS;
}

hipError_t hipSetDevice(int deviceId) {
    if (deviceId < 0 || deviceId >= gs_device_count()) return GS_INVALID_DEVICE;
    tl_device = deviceId;
    return GS_SUCCESS;
}

hipError_t hipDeviceGet(hipDevice_t *device, int ordinal) {
    if (!device) return GS_INVALID_VALUE;
    if (ordinal < 0 || ordinal >= gs_device_count()) return GS_INVALID_DEVICE;
    *device = ordinal;
    return GS_SUCCESS;
}

hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device) {
    if (!name || len <= 0) return GS_INVALID_VALUE;
    if (device < 0 || device >= gs_device_count()) return GS_INVALID_DEVICE;
    snprintf(name, (size_t) len, "GAR stand-in HIP device %d", device);
    return GS_SUCCESS;
}

hipError_t hipDevicePrimaryCtxRetain(hipCtx_t *pctx, hipDevice_t dev) {
    if (!pctx) return GS_INVALID_VALUE;
    int rc = gs_primary_retain(dev);
    if (rc == GS_SUCCESS) *pctx = (hipCtx_t) (void *) gs_primary(dev);
    return rc;
}

hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev) { return gs_primary_release(dev); }

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags) {
    const unsigned known = hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined |
                           hipHostMallocNumaUser | hipHostMallocCoherent | hipHostMallocNonCoherent;
    if (flags & ~known) return GS_INVALID_VALUE;
    if ((flags & hipHostMallocCoherent) && (flags & hipHostMallocNonCoherent)) return GS_INVALID_VALUE;
    /* hipHostMalloc always maps the memory (it sets Portable|Mapped itself). */
    return gs_host_alloc(gs_primary(tl_device), ptr, size, flags, 1);
}

hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags) {
    if (!devPtr || flags != 0) return GS_INVALID_VALUE;
    uint64_t d;
    int rc = gs_host_device_pointer(&d, hstPtr);
    if (rc == GS_SUCCESS) *devPtr = (void *) (uintptr_t) d;
    return rc;
}

hipError_t hipHostFree(void *ptr) {
    if (!ptr) return GS_SUCCESS;
    return gs_host_free(ptr);
}

static gs_stream *stream_of(hipStream_t h, int *rc) {
    if (h) return gs_stream_resolve((void *) h, rc);
    return gs_ctx_default_stream(gs_primary(tl_device), rc); /* the null stream of the current device */
}

hipError_t hipStreamCreate(hipStream_t *stream) {
    if (!stream) return GS_INVALID_VALUE;
    gs_stream *s;
    int rc = gs_stream_new(&s, gs_primary(tl_device));
    if (rc == GS_SUCCESS) *stream = (hipStream_t) (void *) s;
    return rc;
}

hipError_t hipStreamDestroy(hipStream_t stream) {
    if (!stream) return GS_INVALID_HANDLE;
    return gs_stream_destroy((gs_stream *) (void *) stream);
}

hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t *device) {
    if (!device) return GS_INVALID_VALUE;
    int rc;
    gs_stream *s = stream_of(stream, &rc);
    if (!s) return rc;
    *device = gs_ctx_device(gs_stream_ctx(s));
    return GS_SUCCESS;
}

hipError_t hipStreamQuery(hipStream_t stream) {
    int rc;
    gs_stream *s = stream_of(stream, &rc);
    return s ? gs_stream_query(s) : rc;
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
    int rc;
    gs_stream *s = stream_of(stream, &rc);
    return s ? gs_stream_sync(s) : rc;
}

hipError_t hipStreamWriteValue64(hipStream_t stream, void *ptr, uint64_t value, unsigned int flags) {
    (void) flags; /* "reserved, ignored" */
    gs_count("write_value", 1);
    int rc;
    gs_stream *s = stream_of(stream, &rc);
    return s ? gs_enqueue_write64(s, (uint64_t) (uintptr_t) ptr, value) : rc;
}

hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count, hipStream_t stream) {
    int rc;
    gs_stream *s = stream_of(stream, &rc);
    return s ? gs_enqueue_memset(s, (uint64_t) (uintptr_t) dest, value, count) : rc;
}

hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *userData) {
    int rc;
    gs_stream *s = stream_of(stream, &rc);
    return s ? gs_enqueue_hostfn(s, fn, userData) : rc;
}

/* ---- test hooks (standin_core.h) ---- */

GS_TEST_HOOKS(hipError_t, hipStream_t)
