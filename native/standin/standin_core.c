/* The stand-in device shared by the CUDA and HIP stand-in drivers; see standin_core.h. Test-only. */
#define _POSIX_C_SOURCE 200809L
#include "standin_core.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ faults and counters */

struct named { const char *name; long long value; long long initial; };

static struct named g_faults[] = {
    {"fail_alloc", 0, 0}, /* the next N host allocations fail with out-of-memory (-1: all of them) */
    {"attr_122", 1, 1},   /* CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS; -1: unknown to this driver */
    {"attr_92", 0, 0},    /* ..._CAN_USE_STREAM_MEM_OPS_V1 (reads 0 on current drivers, as on GB10) */
    {"attr_93", 0, 0},    /* ..._CAN_USE_64_BIT_STREAM_MEM_OPS_V1 */
    {"devices", 2, 2},    /* how many devices there are */
    {"no_binary", 0, 0},  /* cuModuleLoadData: CUDA_ERROR_NO_BINARY_FOR_GPU */
};

static struct named g_counters[] = {
    {"primary_retain", 0, 0},      {"primary_release", 0, 0},   {"release_unretained", 0, 0},
    {"host_alloc", 0, 0},          {"host_free", 0, 0},         {"free_unknown", 0, 0},
    {"free_under_pending", 0, 0},  {"free_after_domain_gone", 0, 0},
    {"domain_gone_with_allocs", 0, 0},
    {"write_value", 0, 0},         {"write_value_v1", 0, 0},    {"writes_done", 0, 0},
    {"stream_create", 0, 0},       {"ops_dropped", 0, 0},       {"seq", 0, 0},
    {"seq_last_host_free", 0, 0},  {"seq_last_primary_release", 0, 0},
    {"wait_value", 0, 0},          {"primary_set_flags", 0, 0},
    {"module_load", 0, 0},         {"module_unload", 0, 0},     {"kernel_launch", 0, 0},
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static struct named *find_named(struct named *table, size_t n, const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i].name, name) == 0) return &table[i];
    return NULL;
}

long long gs_fault(const char *name) {
    struct named *f = find_named(g_faults, COUNT_OF(g_faults), name);
    return f ? __atomic_load_n(&f->value, __ATOMIC_SEQ_CST) : 0;
}

int gs_set_fault(const char *name, long long value) {
    struct named *f = find_named(g_faults, COUNT_OF(g_faults), name);
    if (!f) return GS_INVALID_VALUE;
    if (strcmp(name, "devices") == 0 && (value < 1 || value > GS_MAX_DEVICES)) return GS_INVALID_VALUE;
    __atomic_store_n(&f->value, value, __ATOMIC_SEQ_CST);
    return GS_SUCCESS;
}

void gs_count(const char *name, long long delta) {
    struct named *c = find_named(g_counters, COUNT_OF(g_counters), name);
    if (c) __atomic_add_fetch(&c->value, delta, __ATOMIC_SEQ_CST);
}

static void gs_stamp(const char *name) {
    struct named *seq = find_named(g_counters, COUNT_OF(g_counters), "seq");
    struct named *c = find_named(g_counters, COUNT_OF(g_counters), name);
    if (seq && c) __atomic_store_n(&c->value, __atomic_add_fetch(&seq->value, 1, __ATOMIC_SEQ_CST), __ATOMIC_SEQ_CST);
}

long long gs_counter(const char *name) {
    struct named *c = find_named(g_counters, COUNT_OF(g_counters), name);
    return c ? __atomic_load_n(&c->value, __ATOMIC_SEQ_CST) : -1;
}

void gs_reset(void) {
    for (size_t i = 0; i < COUNT_OF(g_faults); i++) __atomic_store_n(&g_faults[i].value, g_faults[i].initial, __ATOMIC_SEQ_CST);
    for (size_t i = 0; i < COUNT_OF(g_counters); i++) __atomic_store_n(&g_counters[i].value, 0, __ATOMIC_SEQ_CST);
}

void gs_init_from_env(void) {
    static const struct { const char *env; const char *fault; } map[] = {
        {"GAR_STANDIN_FAIL_ALLOC", "fail_alloc"}, {"GAR_STANDIN_ATTR_122", "attr_122"},
        {"GAR_STANDIN_ATTR_92", "attr_92"},       {"GAR_STANDIN_ATTR_93", "attr_93"},
        {"GAR_STANDIN_DEVICES", "devices"},
    };
    for (size_t i = 0; i < COUNT_OF(map); i++) {
        const char *v = getenv(map[i].env);
        if (v && *v) gs_set_fault(map[i].fault, strtoll(v, NULL, 10));
    }
}

/* ------------------------------------------------------------------ devices and contexts */

struct gs_ctx {
    int device;
    int primary;
    long long refs; /* primary: retain count; the context exists while it is > 0 */
    int alive;      /* non-primary: until destroyed */
    gs_stream *dflt;
};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static gs_ctx g_primary[GS_MAX_DEVICES];
static int g_primary_ready;
static int g_initialized;

static void primaries_locked(void) {
    if (g_primary_ready) return;
    for (int i = 0; i < GS_MAX_DEVICES; i++) {
        g_primary[i].device = i;
        g_primary[i].primary = 1;
    }
    g_primary_ready = 1;
}

int gs_initialized(void) { return __atomic_load_n(&g_initialized, __ATOMIC_SEQ_CST); }
void gs_set_initialized(void) { __atomic_store_n(&g_initialized, 1, __ATOMIC_SEQ_CST); }
int gs_device_count(void) { return (int) gs_fault("devices"); }

gs_ctx *gs_primary(int device) {
    if (device < 0 || device >= gs_device_count()) return NULL;
    pthread_mutex_lock(&g_mu);
    primaries_locked();
    pthread_mutex_unlock(&g_mu);
    return &g_primary[device];
}

int gs_ctx_device(const gs_ctx *ctx) { return ctx->device; }
int gs_ctx_is_primary(const gs_ctx *ctx) { return ctx->primary; }

int gs_ctx_alive(const gs_ctx *ctx) {
    pthread_mutex_lock(&g_mu);
    int alive = ctx->primary ? ctx->refs > 0 : ctx->alive;
    pthread_mutex_unlock(&g_mu);
    return alive;
}

long long gs_primary_refs(int device) {
    gs_ctx *p = gs_primary(device);
    if (!p) return -1;
    pthread_mutex_lock(&g_mu);
    long long r = p->refs;
    pthread_mutex_unlock(&g_mu);
    return r;
}

struct gs_alloc {
    char *host;
    size_t size;
    unsigned flags;
    int mapped;
    gs_ctx *ctx;
    long pending; /* queued stores into this allocation not yet run */
    struct gs_alloc *next;
};
static struct gs_alloc *g_allocs;

int gs_primary_retain(int device) {
    gs_ctx *p = gs_primary(device);
    if (!p) return GS_INVALID_DEVICE;
    pthread_mutex_lock(&g_mu);
    p->refs++;
    pthread_mutex_unlock(&g_mu);
    gs_count("primary_retain", 1);
    return GS_SUCCESS;
}

int gs_primary_release(int device) {
    gs_ctx *p = gs_primary(device);
    if (!p) return GS_INVALID_DEVICE;
    pthread_mutex_lock(&g_mu);
    if (p->refs == 0) {
        pthread_mutex_unlock(&g_mu);
        gs_count("release_unretained", 1);
        return GS_INVALID_CONTEXT;
    }
    p->refs--;
    int gone_with_allocs = 0;
    if (p->refs == 0)
        for (struct gs_alloc *a = g_allocs; a; a = a->next)
            if (a->ctx == p) gone_with_allocs = 1;
    pthread_mutex_unlock(&g_mu);
    gs_count("primary_release", 1);
    gs_stamp("seq_last_primary_release");
    if (gone_with_allocs) gs_count("domain_gone_with_allocs", 1);
    return GS_SUCCESS;
}

gs_ctx *gs_ctx_create(int device) {
    if (device < 0 || device >= gs_device_count()) return NULL;
    gs_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->device = device;
    c->alive = 1;
    return c;
}

int gs_ctx_destroy(gs_ctx *ctx) {
    if (!ctx || ctx->primary) return GS_INVALID_VALUE;
    pthread_mutex_lock(&g_mu);
    ctx->alive = 0; /* kept (not freed) so a stale handle reads as destroyed, not as garbage */
    pthread_mutex_unlock(&g_mu);
    return GS_SUCCESS;
}

static __thread gs_ctx *tl_stack[16];
static __thread int tl_depth;

gs_ctx *gs_current(void) { return tl_depth > 0 ? tl_stack[tl_depth - 1] : NULL; }

void gs_set_current(gs_ctx *ctx) {
    if (tl_depth > 0) tl_stack[tl_depth - 1] = ctx;
    else if (ctx) tl_stack[tl_depth++] = ctx;
}

int gs_push_current(gs_ctx *ctx) {
    if (tl_depth >= (int) COUNT_OF(tl_stack)) return GS_INVALID_VALUE;
    tl_stack[tl_depth++] = ctx;
    return GS_SUCCESS;
}

gs_ctx *gs_pop_current(int *ok) {
    if (tl_depth == 0) { *ok = 0; return NULL; }
    *ok = 1;
    return tl_stack[--tl_depth];
}

/* ------------------------------------------------------------------ host allocations */

static unsigned g_last_alloc_flags;

unsigned gs_last_alloc_flags(void) { return __atomic_load_n(&g_last_alloc_flags, __ATOMIC_SEQ_CST); }

int gs_host_alloc(gs_ctx *ctx, void **pp, size_t bytes, unsigned flags, int mapped) {
    if (!pp || bytes == 0) return GS_INVALID_VALUE;
    long long fail = gs_fault("fail_alloc");
    if (fail == -1) return GS_OUT_OF_MEMORY;
    if (fail > 0) {
        gs_set_fault("fail_alloc", fail - 1);
        return GS_OUT_OF_MEMORY;
    }
    struct gs_alloc *a = calloc(1, sizeof *a);
    if (!a) return GS_OUT_OF_MEMORY;
    size_t size = (bytes + 4095) & ~(size_t) 4095;
    a->host = aligned_alloc(4096, size);
    if (!a->host) { free(a); return GS_OUT_OF_MEMORY; }
    memset(a->host, 0xA5, size); /* like the real driver, no promise of zeroed memory */
    a->size = size;
    a->flags = flags;
    a->mapped = mapped;
    a->ctx = ctx;
    pthread_mutex_lock(&g_mu);
    a->next = g_allocs;
    g_allocs = a;
    pthread_mutex_unlock(&g_mu);
    __atomic_store_n(&g_last_alloc_flags, flags, __ATOMIC_SEQ_CST);
    gs_count("host_alloc", 1);
    *pp = a->host;
    return GS_SUCCESS;
}

static struct gs_alloc *containing_locked(const char *p, size_t len) {
    for (struct gs_alloc *a = g_allocs; a; a = a->next)
        if (p >= a->host && len <= a->size && p - a->host <= (ptrdiff_t) (a->size - len)) return a;
    return NULL;
}

int gs_host_device_pointer(uint64_t *dptr, void *host) {
    if (!dptr || !host) return GS_INVALID_VALUE;
    pthread_mutex_lock(&g_mu);
    struct gs_alloc *a = containing_locked(host, 1);
    int ok = a && a->mapped;
    pthread_mutex_unlock(&g_mu);
    if (!ok) return GS_INVALID_VALUE;
    *dptr = (uint64_t) (uintptr_t) host | GS_DEVICE_TAG;
    return GS_SUCCESS;
}

int gs_host_free(void *host) {
    pthread_mutex_lock(&g_mu);
    struct gs_alloc **link = &g_allocs;
    while (*link && (*link)->host != host) link = &(*link)->next;
    struct gs_alloc *a = *link;
    if (!a) {
        pthread_mutex_unlock(&g_mu);
        gs_count("free_unknown", 1);
        return GS_INVALID_VALUE;
    }
    if (a->pending > 0) {
        /* A real driver would free under the pending store (a use after free on the device).
         * Count the violation and keep the memory, so the stand-in itself stays sound. */
        pthread_mutex_unlock(&g_mu);
        gs_count("free_under_pending", 1);
        return GS_SUCCESS;
    }
    if (a->ctx && a->ctx->primary && a->ctx->refs == 0) gs_count("free_after_domain_gone", 1);
    *link = a->next;
    pthread_mutex_unlock(&g_mu);
    free(a->host);
    free(a);
    gs_count("host_free", 1);
    gs_stamp("seq_last_host_free");
    return GS_SUCCESS;
}

/* Host pointer and allocation of a device range; NULL when it is not inside a mapped allocation. */
static struct gs_alloc *translate_locked(uint64_t daddr, size_t len, char **host) {
    if (!(daddr & GS_DEVICE_TAG)) return NULL;
    char *p = (char *) (uintptr_t) (daddr & ~GS_DEVICE_TAG);
    struct gs_alloc *a = containing_locked(p, len);
    if (!a || !a->mapped) return NULL;
    *host = p;
    return a;
}

/* ------------------------------------------------------------------ streams */

enum { OP_SLEEP, OP_SPIN, OP_FAIL, OP_HANG, OP_WRITE64, OP_MEMSET, OP_HOSTFN, OP_WAIT64 };

struct gs_op {
    int kind;
    uint64_t usec;
    char *host;
    uint64_t value;
    size_t n;
    struct gs_alloc *alloc;
    void (*fn)(void *);
    void *user;
    uint64_t hang_epoch;
    struct gs_op *next;
};

#define GS_STREAM_MAGIC 0x5354524dU

struct gs_stream {
    unsigned magic;
    gs_ctx *ctx;
    pthread_mutex_t mu;
    pthread_cond_t work, idle;
    struct gs_op *head, *tail;
    uint64_t enq, done;
    int error;
    int destroying;
};

static pthread_mutex_t g_hang_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_hang_cv = PTHREAD_COND_INITIALIZER;
static uint64_t g_hang_epoch;

static uint64_t now_usec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u;
}

static void sleep_usec(uint64_t usec) {
    struct timespec ts = {(time_t) (usec / 1000000u), (long) (usec % 1000000u) * 1000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

static void unpend(struct gs_alloc *a) {
    if (!a) return;
    pthread_mutex_lock(&g_mu);
    a->pending--;
    pthread_mutex_unlock(&g_mu);
}

static int run_op(struct gs_op *op) {
    switch (op->kind) {
    case OP_SLEEP: sleep_usec(op->usec); return GS_SUCCESS;
    case OP_SPIN: {
        uint64_t end = now_usec() + op->usec;
        while (now_usec() < end) {}
        return GS_SUCCESS;
    }
    case OP_FAIL: sleep_usec(op->usec); return GS_LAUNCH_FAILED;
    case OP_HANG:
        pthread_mutex_lock(&g_hang_mu);
        while (g_hang_epoch == op->hang_epoch) pthread_cond_wait(&g_hang_cv, &g_hang_mu);
        pthread_mutex_unlock(&g_hang_mu);
        return GS_SUCCESS;
    case OP_WRITE64:
        __atomic_store_n((uint64_t *) (void *) op->host, op->value, __ATOMIC_RELEASE);
        gs_count("writes_done", 1);
        unpend(op->alloc);
        return GS_SUCCESS;
    case OP_MEMSET:
        memset(op->host, (int) op->value, op->n); /* plain stores: the payload of a "kernel" */
        unpend(op->alloc);
        return GS_SUCCESS;
    case OP_HOSTFN: op->fn(op->user); return GS_SUCCESS;
    case OP_WAIT64:
        for (;;) {
            uint64_t w = __atomic_load_n((uint64_t *) (void *) op->host, __ATOMIC_ACQUIRE);
            int pass = op->n == 0 ? (int64_t) (w - op->value) >= 0
                     : op->n == 1 ? w == op->value
                     : op->n == 2 ? (w & op->value) != 0
                     : ~(w | op->value) != 0;
            if (pass) break;
            pthread_mutex_lock(&g_hang_mu);
            int released = g_hang_epoch != op->hang_epoch;
            pthread_mutex_unlock(&g_hang_mu);
            if (released) break;
            sleep_usec(5);
        }
        unpend(op->alloc);
        return GS_SUCCESS;
    default: return GS_INVALID_VALUE;
    }
}

static void *worker(void *arg) {
    gs_stream *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->mu);
        while (!s->head && !s->destroying) pthread_cond_wait(&s->work, &s->mu);
        if (!s->head) { pthread_mutex_unlock(&s->mu); break; }
        struct gs_op *op = s->head;
        s->head = op->next;
        if (!s->head) s->tail = NULL;
        int failed = s->error != 0;
        pthread_mutex_unlock(&s->mu);

        int err = GS_SUCCESS;
        if (failed) { /* work behind a failed kernel never runs, as on a device whose context faulted */
            gs_count("ops_dropped", 1);
            if (op->kind == OP_WRITE64 || op->kind == OP_MEMSET || op->kind == OP_WAIT64) unpend(op->alloc);
        } else {
            err = run_op(op);
        }

        pthread_mutex_lock(&s->mu);
        if (err != GS_SUCCESS && s->error == GS_SUCCESS) s->error = err;
        s->done++;
        pthread_cond_broadcast(&s->idle);
        pthread_mutex_unlock(&s->mu);
        free(op);
    }
    s->magic = 0;
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->idle);
    free(s);
    return NULL;
}

int gs_stream_new(gs_stream **out, gs_ctx *ctx) {
    gs_stream *s = calloc(1, sizeof *s);
    if (!s) return GS_OUT_OF_MEMORY;
    s->magic = GS_STREAM_MAGIC;
    s->ctx = ctx;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->work, NULL);
    pthread_cond_init(&s->idle, NULL);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    int rc = pthread_create(&t, &attr, worker, s);
    pthread_attr_destroy(&attr);
    if (rc != 0) { free(s); return GS_OUT_OF_MEMORY; }
    gs_count("stream_create", 1);
    *out = s;
    return GS_SUCCESS;
}

int gs_stream_create(gs_stream **out, gs_ctx *ctx) {
    if (!out) return GS_INVALID_VALUE;
    if (!ctx) return GS_INVALID_CONTEXT;
    if (!gs_ctx_alive(ctx)) return GS_CONTEXT_IS_DESTROYED;
    return gs_stream_new(out, ctx);
}

int gs_stream_destroy(gs_stream *s) {
    if (!s || s->magic != GS_STREAM_MAGIC) return GS_INVALID_HANDLE;
    pthread_mutex_lock(&s->mu);
    s->destroying = 1;
    pthread_cond_broadcast(&s->work);
    pthread_mutex_unlock(&s->mu);
    return GS_SUCCESS; /* like the driver: returns at once; the worker drains, then frees */
}

gs_stream *gs_stream_resolve(void *handle, int *status) {
    if (handle) {
        gs_stream *s = handle;
        if (s->magic != GS_STREAM_MAGIC) { *status = GS_INVALID_HANDLE; return NULL; }
        *status = GS_SUCCESS;
        return s;
    }
    gs_ctx *ctx = gs_current();
    if (!ctx) { *status = GS_INVALID_CONTEXT; return NULL; }
    if (!gs_ctx_alive(ctx)) { *status = GS_CONTEXT_IS_DESTROYED; return NULL; }
    return gs_ctx_default_stream(ctx, status);
}

gs_stream *gs_ctx_default_stream(gs_ctx *ctx, int *status) {
    pthread_mutex_lock(&g_mu);
    if (!ctx->dflt) {
        gs_stream *s = NULL;
        if (gs_stream_new(&s, ctx) != GS_SUCCESS) { pthread_mutex_unlock(&g_mu); *status = GS_OUT_OF_MEMORY; return NULL; }
        ctx->dflt = s;
    }
    gs_stream *s = ctx->dflt;
    pthread_mutex_unlock(&g_mu);
    *status = GS_SUCCESS;
    return s;
}

gs_ctx *gs_stream_ctx(const gs_stream *s) { return s->ctx; }

int gs_stream_query(gs_stream *s) {
    pthread_mutex_lock(&s->mu);
    int r = s->error != GS_SUCCESS ? s->error : s->done < s->enq ? GS_NOT_READY : GS_SUCCESS;
    pthread_mutex_unlock(&s->mu);
    return r;
}

int gs_stream_sync(gs_stream *s) {
    pthread_mutex_lock(&s->mu);
    uint64_t target = s->enq;
    while (s->done < target && s->error == GS_SUCCESS) pthread_cond_wait(&s->idle, &s->mu);
    int r = s->error;
    pthread_mutex_unlock(&s->mu);
    return r;
}

static int enqueue(gs_stream *s, struct gs_op *op) {
    pthread_mutex_lock(&s->mu);
    if (s->destroying) { pthread_mutex_unlock(&s->mu); free(op); return GS_INVALID_HANDLE; }
    op->next = NULL;
    if (s->tail) s->tail->next = op; else s->head = op;
    s->tail = op;
    s->enq++;
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->mu);
    return GS_SUCCESS;
}

static struct gs_op *new_op(int kind) {
    struct gs_op *op = calloc(1, sizeof *op);
    if (op) op->kind = kind;
    return op;
}

int gs_enqueue_sleep(gs_stream *s, uint64_t usec) {
    struct gs_op *op = new_op(OP_SLEEP);
    if (!op) return GS_OUT_OF_MEMORY;
    op->usec = usec;
    return enqueue(s, op);
}

int gs_enqueue_spin(gs_stream *s, uint64_t usec) {
    struct gs_op *op = new_op(OP_SPIN);
    if (!op) return GS_OUT_OF_MEMORY;
    op->usec = usec;
    return enqueue(s, op);
}

int gs_enqueue_fail(gs_stream *s, uint64_t usec) {
    struct gs_op *op = new_op(OP_FAIL);
    if (!op) return GS_OUT_OF_MEMORY;
    op->usec = usec;
    return enqueue(s, op);
}

int gs_enqueue_hang(gs_stream *s) {
    struct gs_op *op = new_op(OP_HANG);
    if (!op) return GS_OUT_OF_MEMORY;
    pthread_mutex_lock(&g_hang_mu);
    op->hang_epoch = g_hang_epoch;
    pthread_mutex_unlock(&g_hang_mu);
    return enqueue(s, op);
}

void gs_release_hangs(void) {
    pthread_mutex_lock(&g_hang_mu);
    g_hang_epoch++;
    pthread_cond_broadcast(&g_hang_cv);
    pthread_mutex_unlock(&g_hang_mu);
}

static int enqueue_page_op(gs_stream *s, int kind, uint64_t daddr, uint64_t value, size_t n) {
    if (kind == OP_WRITE64 && (daddr & 7u)) return GS_INVALID_VALUE;
    struct gs_op *op = new_op(kind);
    if (!op) return GS_OUT_OF_MEMORY;
    pthread_mutex_lock(&g_mu);
    op->alloc = translate_locked(daddr, n, &op->host);
    if (op->alloc) op->alloc->pending++;
    pthread_mutex_unlock(&g_mu);
    if (!op->alloc) { free(op); return GS_INVALID_VALUE; }
    op->value = value;
    op->n = n;
    struct gs_alloc *alloc = op->alloc;
    int rc = enqueue(s, op); /* frees op when it fails */
    if (rc != GS_SUCCESS) unpend(alloc);
    return rc;
}

int gs_enqueue_write64(gs_stream *s, uint64_t device_addr, uint64_t value) {
    return enqueue_page_op(s, OP_WRITE64, device_addr, value, sizeof(uint64_t));
}

int gs_enqueue_wait64(gs_stream *s, uint64_t device_addr, uint64_t value, int test) {
    if (device_addr & 7u) return GS_INVALID_VALUE;
    struct gs_op *op = new_op(OP_WAIT64);
    if (!op) return GS_OUT_OF_MEMORY;
    pthread_mutex_lock(&g_mu);
    op->alloc = translate_locked(device_addr, sizeof(uint64_t), &op->host);
    if (op->alloc) op->alloc->pending++;
    pthread_mutex_unlock(&g_mu);
    if (!op->alloc) { free(op); return GS_INVALID_VALUE; }
    pthread_mutex_lock(&g_hang_mu);
    op->hang_epoch = g_hang_epoch;
    pthread_mutex_unlock(&g_hang_mu);
    op->value = value;
    op->n = (size_t) test;
    struct gs_alloc *alloc = op->alloc;
    int rc = enqueue(s, op); /* frees op when it fails */
    if (rc != GS_SUCCESS) unpend(alloc);
    return rc;
}

int gs_enqueue_memset(gs_stream *s, uint64_t device_addr, unsigned char value, size_t n) {
    if (n == 0) return GS_SUCCESS;
    return enqueue_page_op(s, OP_MEMSET, device_addr, value, n);
}

int gs_enqueue_hostfn(gs_stream *s, void (*fn)(void *), void *user) {
    if (!fn) return GS_INVALID_VALUE;
    struct gs_op *op = new_op(OP_HOSTFN);
    if (!op) return GS_OUT_OF_MEMORY;
    op->fn = fn;
    op->user = user;
    return enqueue(s, op);
}
