/*
 * The stand-in "device" shared by the CUDA and HIP stand-in drivers (test-only; never shipped).
 *
 * A stream is a worker thread that runs its queued operations in order. A "kernel" is a test hook
 * that sleeps, spins, fails or hangs. A write-value stores into the mapped page with release
 * (__atomic_store_n), after every earlier operation of its stream, the way cuStreamWriteValue64 with
 * default flags orders earlier work. Device addresses differ from host addresses (a tag bit), so a
 * binding that passes a host pointer where a device pointer belongs is caught.
 *
 * Status numbers are the ones CUDA and HIP share (CUDA_ERROR_x == hipErrorX for every one used here).
 * Everything here has hidden visibility; only the vendor entry points and the hooks are exported.
 */
#ifndef GAR_STANDIN_CORE_H
#define GAR_STANDIN_CORE_H

#include <stddef.h>
#include <stdint.h>

enum {
    GS_SUCCESS = 0,
    GS_INVALID_VALUE = 1,
    GS_OUT_OF_MEMORY = 2,
    GS_NOT_INITIALIZED = 3,
    GS_INVALID_DEVICE = 101,
    GS_INVALID_CONTEXT = 201,
    GS_INVALID_HANDLE = 400,
    GS_NOT_READY = 600,
    GS_CONTEXT_IS_DESTROYED = 709,
    GS_LAUNCH_FAILED = 719,
    GS_NOT_SUPPORTED = 801
};

#define GS_MAX_DEVICES 8
/* Device addresses are host addresses with this bit set (user addresses never have it). */
#define GS_DEVICE_TAG (1ULL << 62)

typedef struct gs_ctx gs_ctx;
typedef struct gs_stream gs_stream;

/* ---- faults and counters (one set per library) ---- */
long long gs_fault(const char *name);
int gs_set_fault(const char *name, long long value);
void gs_count(const char *name, long long delta);
long long gs_counter(const char *name);
void gs_reset(void);
void gs_init_from_env(void);

/* ---- devices and contexts ---- */
int gs_initialized(void);
void gs_set_initialized(void);
int gs_device_count(void);
gs_ctx *gs_primary(int device);
int gs_ctx_device(const gs_ctx *ctx);
int gs_ctx_alive(const gs_ctx *ctx);
int gs_ctx_is_primary(const gs_ctx *ctx);
long long gs_primary_refs(int device);
int gs_primary_retain(int device);  /* returns a status */
int gs_primary_release(int device); /* returns a status */
gs_ctx *gs_ctx_create(int device);
int gs_ctx_destroy(gs_ctx *ctx);
gs_ctx *gs_current(void);
void gs_set_current(gs_ctx *ctx);
int gs_push_current(gs_ctx *ctx);
gs_ctx *gs_pop_current(int *ok);

/* ---- host allocations ---- */
/* ctx: the context the allocation belongs to (NULL: none); mapped: whether it gets a device address */
int gs_host_alloc(gs_ctx *ctx, void **pp, size_t bytes, unsigned flags, int mapped);
int gs_host_device_pointer(uint64_t *dptr, void *host);
int gs_host_free(void *host);
unsigned gs_last_alloc_flags(void);

/* ---- streams ---- */
int gs_stream_create(gs_stream **out, gs_ctx *ctx); /* the context must be alive */
int gs_stream_new(gs_stream **out, gs_ctx *ctx);    /* any context (HIP has no context lifetime) */
gs_stream *gs_ctx_default_stream(gs_ctx *ctx, int *status);
int gs_stream_destroy(gs_stream *s);
gs_stream *gs_stream_resolve(void *handle, int *status); /* NULL handle: the current context's default stream */
gs_ctx *gs_stream_ctx(const gs_stream *s);
int gs_stream_query(gs_stream *s);
int gs_stream_sync(gs_stream *s);

/* operations: each returns a status of the enqueue */
int gs_enqueue_sleep(gs_stream *s, uint64_t usec);
int gs_enqueue_spin(gs_stream *s, uint64_t usec);
int gs_enqueue_fail(gs_stream *s, uint64_t usec);
int gs_enqueue_hang(gs_stream *s);
int gs_enqueue_write64(gs_stream *s, uint64_t device_addr, uint64_t value);
/* test: 0 GEQ (wrapping: (int64_t)(word - value) >= 0), 1 EQ, 2 AND (word & value) != 0, 3 NOR ~(word | value) != 0.
 * The stream polls the word (acquire loads, 5 us apart) until it passes, or until hangs are released. */
int gs_enqueue_wait64(gs_stream *s, uint64_t device_addr, uint64_t value, int test);
int gs_enqueue_memset(gs_stream *s, uint64_t device_addr, unsigned char value, size_t n);
int gs_enqueue_hostfn(gs_stream *s, void (*fn)(void *), void *user);
void gs_release_hangs(void);

/* ---- test hooks ----
 * The same names and meaning in both stand-ins (standin_cuda.h and standin_hip.h declare them; StandinHooks
 * binds them). GS_TEST_HOOKS(status type, stream type) defines them in a driver's file, over that file's
 * stream_of(handle, &status), so a bad handle answers with the driver's own status. */
#define GS_TEST_HOOKS(status_t, stream_t)                                                                   \
    static status_t gs_hook_launch(stream_t stream, int (*op)(gs_stream *, uint64_t), uint64_t usec) {     \
        int rc;                                                                                          \
        gs_stream *s = stream_of(stream, &rc);                                                           \
        return (status_t) (s ? op(s, usec) : rc);                                                        \
    }                                                                                                    \
    static int gs_hook_hang(gs_stream *s, uint64_t usec) { (void) usec; return gs_enqueue_hang(s); }     \
    status_t gar_standin_launch_sleep(stream_t stream, unsigned long long usec) {                         \
        return gs_hook_launch(stream, gs_enqueue_sleep, usec);                                           \
    }                                                                                                    \
    status_t gar_standin_launch_spin(stream_t stream, unsigned long long usec) {                          \
        return gs_hook_launch(stream, gs_enqueue_spin, usec);                                            \
    }                                                                                                    \
    status_t gar_standin_launch_fail(stream_t stream, unsigned long long usec) {                          \
        return gs_hook_launch(stream, gs_enqueue_fail, usec);                                            \
    }                                                                                                    \
    status_t gar_standin_launch_hang(stream_t stream) { return gs_hook_launch(stream, gs_hook_hang, 0); } \
    void gar_standin_release_hangs(void) { gs_release_hangs(); }                                         \
    int gar_standin_set(const char *name, long long value) { return gs_set_fault(name, value); }         \
    long long gar_standin_counter(const char *name) { return gs_counter(name); }                         \
    long long gar_standin_primary_refs(int device) { return gs_primary_refs(device); }                   \
    unsigned int gar_standin_last_alloc_flags(void) { return gs_last_alloc_flags(); }                    \
    void gar_standin_reset(void) { gs_reset(); }

#endif
