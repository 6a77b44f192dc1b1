/*
 * garpark: the hardware park on a 64-byte completion line. See garpark.h for the contract.
 *
 * Every park loop has the same shape, the one the monitor instructions require:
 *   arm the monitor on the line -> re-check the line against the snapshot -> check the bound -> wait.
 * Checking after arming is what makes a store between the caller's snapshot and the wait impossible to
 * miss: a store before the arm is seen by the re-check, a store after it trips the monitor (or sets the
 * event register), so the wait returns at once. Whatever ends a wait (a store, the wait's own timer, the
 * OS cap on umwait, an interrupt, a spurious wake), the loop re-arms and re-checks; it leaves only on a
 * difference or when CLOCK_MONOTONIC passes the deadline. The wait instruction's timer is only a slice
 * (at most SLICE_MAX_NS), so a TSC rate that is a little off stretches one slice, never the bound.
 *
 * Memory: the line is read only with acquire loads, so a caller that sees a word change also sees what
 * the writer published before its release store. The snapshot is the caller's private copy.
 */
#define _POSIX_C_SOURCE 200809L

#include "garpark.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#include <x86intrin.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

#define LINE_WORDS 8
#define LINE_BYTES 64
/* The longest single hardware wait: bounds the cost of a wrong counter rate, and is far above any
 * wake this library cares about, so it costs nothing measurable (one re-arm per millisecond). */
#define SLICE_MAX_NS 1000000LL
#define NOTE_CAP 256

static struct {
    int32_t flavour;
    uint64_t rate_hz;
    char note[NOTE_CAP];
} g_probe;
static pthread_once_t g_probe_once = PTHREAD_ONCE_INIT;

static inline uint64_t load_word(const uint64_t *line, int i) {
    /* WHY the cast: the Java side stores through VarHandles into plain 64-bit memory; an aligned 64-bit
     * _Atomic has the same size, alignment and lock-free access on x86-64 and aarch64. */
    return atomic_load_explicit((const _Atomic uint64_t *)(line + i), memory_order_acquire);
}

static inline int line_differs(const uint64_t *line, const uint64_t *snapshot) {
    for (int i = 0; i < LINE_WORDS; i++) {
        if (load_word(line, i) != snapshot[i]) return 1;
    }
    return 0;
}

static inline int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ns (at most SLICE_MAX_NS) in ticks of a counter running at rate_hz; at least 1. */
static inline uint64_t slice_ticks(int64_t ns, uint64_t rate_hz) {
    if (ns > SLICE_MAX_NS) ns = SLICE_MAX_NS;
    if (ns < 1) ns = 1;
    /* ns <= 1e6 and rate < 1e11, so the product fits in 64 bits. */
    uint64_t t = (uint64_t)ns * rate_hz / 1000000000ULL;
    return t == 0 ? 1 : t;
}

static void note_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note_set(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_probe.note, sizeof g_probe.note, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------------------------------------ */
#if defined(__x86_64__)

static uint64_t tsc_rate(const char **how) {
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) >= 0x15) {
        __cpuid_count(0x15, 0, a, b, c, d);
        if (a != 0 && b != 0 && c != 0) {
            *how = "CPUID 0x15";
            return (uint64_t)c * b / a;
        }
    }
    /* AMD and most VMs have no leaf 0x15: measure the TSC against CLOCK_MONOTONIC over ~5 ms. The
     * timestamps are taken on both sides of the sleep, so oversleep does not bias the rate. */
    int64_t t0 = now_ns();
    uint64_t c0 = __rdtsc();
    struct timespec five = {0, 5000000};
    nanosleep(&five, NULL);
    int64_t t1 = now_ns();
    uint64_t c1 = __rdtsc();
    *how = "calibrated against CLOCK_MONOTONIC";
    if (t1 <= t0 || c1 <= c0) return 0;
    return (uint64_t)((double)(c1 - c0) * 1e9 / (double)(t1 - t0));
}

static void probe_once(void) {
    unsigned a, b, c, d;
    int tsc = 0, invariant = 0, waitpkg = 0, monitorx = 0;
    unsigned max = __get_cpuid_max(0, NULL);
    if (max >= 1 && __get_cpuid(1, &a, &b, &c, &d)) tsc = (d >> 4) & 1;
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        waitpkg = (c >> 5) & 1; /* CPUID.(EAX=7,ECX=0):ECX[5] */
    }
    unsigned xmax = __get_cpuid_max(0x80000000, NULL);
    if (xmax >= 0x80000001 && __get_cpuid(0x80000001, &a, &b, &c, &d)) monitorx = (c >> 29) & 1; /* ECX[29] */
    if (xmax >= 0x80000007 && __get_cpuid(0x80000007, &a, &b, &c, &d)) invariant = (d >> 8) & 1;

    const char *how = "no TSC";
    g_probe.rate_hz = tsc ? tsc_rate(&how) : 0;
    double ghz = (double)g_probe.rate_hz / 1e9;
    const char *inv = invariant ? "invariant" : "not invariant";

    if (!tsc || g_probe.rate_hz == 0) {
        g_probe.flavour = GARPARK_NONE;
        note_set("no usable TSC to count a deadline in (%s)", how);
    } else if (waitpkg) {
        g_probe.flavour = GARPARK_UMWAIT;
        note_set("waitpkg: umonitor/umwait C0.2; TSC %.3f GHz (%s, %s)", ghz, how, inv);
    } else if (monitorx) {
        g_probe.flavour = GARPARK_MWAITX;
        note_set("monitorx: monitorx/mwaitx with timer; TSC %.3f GHz (%s, %s)", ghz, how, inv);
    } else {
        g_probe.flavour = GARPARK_NONE;
        note_set("CPU lacks waitpkg and monitorx (CPUID 7.0:ECX[5] and 0x80000001:ECX[29] read 0); "
                 "TSC %.3f GHz (%s, %s)", ghz, how, inv);
    }
}

/* Intel WAITPKG. umwait takes an absolute TSC deadline; control 0 asks for C0.2. The OS caps one wait at
 * IA32_UMWAIT_CONTROL (Linux default 100,000 TSC cycles) and then returns with CF=1: the loop simply
 * re-arms, so a capped wait is just a shorter slice. */
__attribute__((target("waitpkg")))
static int32_t park_umwait(const uint64_t *line, const uint64_t *snapshot, int64_t deadline_ns, uint64_t rate_hz) {
    for (;;) {
        _umonitor((void *)line);
        if (line_differs(line, snapshot)) return GARPARK_CHANGED;
        int64_t left = deadline_ns - now_ns();
        if (left <= 0) return GARPARK_BOUND;
        (void)_umwait(0, __rdtsc() + slice_ticks(left, rate_hz));
    }
}

/* AMD MONITORX. mwaitx's timer is a relative count in TSC-rate clocks (EBX), enabled by ECX bit 1. A
 * count of 0 with the timer enabled can hang newer parts (Linux commit 88d879d), so it is never 0. Hints
 * 0xf0 ask for no C-state, as Linux's own delay_mwaitx does (MWAITX_DISABLE_CSTATES). */
#define MWAITX_ECX_TIMER_ENABLE 0x2u
#define MWAITX_DISABLE_CSTATES 0xf0u
__attribute__((target("mwaitx")))
static int32_t park_mwaitx(const uint64_t *line, const uint64_t *snapshot, int64_t deadline_ns, uint64_t rate_hz) {
    for (;;) {
        _mm_monitorx((const void *)line, 0, 0);
        if (line_differs(line, snapshot)) return GARPARK_CHANGED;
        int64_t left = deadline_ns - now_ns();
        if (left <= 0) return GARPARK_BOUND;
        uint64_t t = slice_ticks(left, rate_hz);
        _mm_mwaitx(MWAITX_ECX_TIMER_ENABLE, MWAITX_DISABLE_CSTATES, (unsigned)(t > 0xffffffffu ? 0xffffffffu : t));
    }
}

static int32_t park_flavour(int32_t flavour, const uint64_t *line, const uint64_t *snapshot, int64_t deadline_ns,
                            uint64_t rate_hz) {
    switch (flavour) {
    case GARPARK_UMWAIT: return park_umwait(line, snapshot, deadline_ns, rate_hz);
    case GARPARK_MWAITX: return park_mwaitx(line, snapshot, deadline_ns, rate_hz);
    default: return GARPARK_REFUSED;
    }
}

int64_t garpark_ticks(void) {
    /* rdtsc is architectural on every x86-64 CPU. */
    return (int64_t)__rdtsc();
}

/* ------------------------------------------------------------------------------------------------ */
#elif defined(__aarch64__) && defined(__linux__)

#ifndef HWCAP_EVTSTRM
#define HWCAP_EVTSTRM (1UL << 2)
#endif
#ifndef HWCAP2_WFXT
#define HWCAP2_WFXT (1UL << 31)
#endif

static inline uint64_t cntvct(void) {
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}

static inline uint64_t cntfrq(void) {
    uint64_t v;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
    return v;
}

/* ldxr arms the exclusive monitor on the reservation granule that holds the line. A store by another
 * observer to the granule clears the monitor, which raises the event wfe/wfet wait for. The monitor is
 * left armed on return, as Linux's __cmpwait does: a clrex would itself raise the event and make the
 * next park return at once. A store outside the granule (should a core's granule be smaller than the
 * line) still ends the park by its bound, and the re-check decides the result. */
static inline void monitor_arm(const uint64_t *line) {
    uint64_t v;
    __asm__ volatile("ldxr %0, [%1]" : "=&r"(v) : "r"(line) : "memory");
    (void)v;
}

static inline void wait_event(void) { __asm__ volatile("wfe" : : : "memory"); }

/* WFET <Xt> (FEAT_WFxT) waits for an event or until CNTVCT reaches Xt. Emitted as its encoding
 * (0xd5031000 | Rt, Rt = x0) so that any assembler takes it; it runs only when HWCAP2_WFXT is set. */
static inline void wait_event_until(uint64_t cntvct_deadline) {
    register uint64_t x0 __asm__("x0") = cntvct_deadline;
    __asm__ volatile(".inst 0xd5031000" : : "r"(x0) : "memory");
}

static void probe_once(void) {
    unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
    g_probe.rate_hz = cntfrq();
    double mhz = (double)g_probe.rate_hz / 1e6;
    if (hw2 & HWCAP2_WFXT) {
        g_probe.flavour = GARPARK_WFET;
        note_set("FEAT_WFxT: ldxr + wfet to a CNTVCT deadline; counter %.3f MHz", mhz);
    } else if (hw & HWCAP_EVTSTRM) {
        g_probe.flavour = GARPARK_WFE;
        note_set("ldxr + wfe, bounded by the kernel's event stream (HWCAP_EVTSTRM); no FEAT_WFxT; counter %.3f MHz",
                 mhz);
    } else {
        g_probe.flavour = GARPARK_NONE;
        note_set("CPU lacks FEAT_WFxT and the kernel's event stream is off (HWCAP_EVTSTRM): a wfe could sleep "
                 "unbounded; counter %.3f MHz", mhz);
    }
}

/* timed: wfet to min(deadline, slice); else wfe, which the event stream ends at least every ~100 us. */
static int32_t park_wfe(const uint64_t *line, const uint64_t *snapshot, int64_t deadline_ns, int timed,
                        uint64_t rate_hz) {
    for (;;) {
        monitor_arm(line);
        if (line_differs(line, snapshot)) return GARPARK_CHANGED;
        int64_t left = deadline_ns - now_ns();
        if (left <= 0) return GARPARK_BOUND;
        if (timed) {
            wait_event_until(cntvct() + slice_ticks(left, rate_hz));
        } else {
            wait_event();
        }
    }
}

static int32_t park_flavour(int32_t flavour, const uint64_t *line, const uint64_t *snapshot, int64_t deadline_ns,
                            uint64_t rate_hz) {
    switch (flavour) {
    case GARPARK_WFET: return park_wfe(line, snapshot, deadline_ns, 1, rate_hz);
    case GARPARK_WFE: return park_wfe(line, snapshot, deadline_ns, 0, rate_hz);
    default: return GARPARK_REFUSED;
    }
}

int64_t garpark_ticks(void) { return (int64_t)cntvct(); }

/* ------------------------------------------------------------------------------------------------ */
#else

static void probe_once(void) {
    g_probe.flavour = GARPARK_NONE;
    g_probe.rate_hz = 0;
    note_set("no user-mode word wait on this target (aarch64 or x86-64 Linux only)");
}

static int32_t park_flavour(int32_t flavour, const uint64_t *line, const uint64_t *snapshot, int64_t deadline_ns,
                            uint64_t rate_hz) {
    (void)flavour, (void)line, (void)snapshot, (void)deadline_ns, (void)rate_hz;
    return GARPARK_REFUSED;
}

int64_t garpark_ticks(void) { return 0; }

#endif
/* ------------------------------------------------------------------------------------------------ */

/* pthread_once gives every caller a happens-before edge to the one probe's writes of g_probe. */
static void probe(void) { pthread_once(&g_probe_once, probe_once); }

int32_t garpark_abi_version(void) { return GARPARK_ABI_VERSION; }

int32_t garpark_probe(uint64_t *rate_hz, char *note, int64_t note_cap) {
    probe();
    if (rate_hz != NULL) *rate_hz = g_probe.rate_hz;
    if (note != NULL && note_cap > 0) {
        size_t cap = (size_t)note_cap;
        size_t n = strlen(g_probe.note);
        if (n >= cap) n = cap - 1;
        memcpy(note, g_probe.note, n);
        note[n] = '\0';
    }
    return g_probe.flavour;
}

static inline int bad_line(const uint64_t *line, const uint64_t *snapshot) {
    return line == NULL || snapshot == NULL || ((uintptr_t)line & (LINE_BYTES - 1)) != 0;
}

int32_t garpark_differs(const uint64_t *line, const uint64_t *snapshot) {
    if (bad_line(line, snapshot)) return GARPARK_BAD_ARG;
    return line_differs(line, snapshot);
}

int32_t garpark_park(const uint64_t *line, const uint64_t *snapshot, int64_t bound_ns) {
    if (bad_line(line, snapshot)) return GARPARK_BAD_ARG;
    probe();
    if (g_probe.flavour == GARPARK_NONE) return GARPARK_REFUSED;
    int64_t now = now_ns();
    if (bound_ns < 0) bound_ns = 0;
    int64_t deadline = bound_ns > INT64_MAX - now ? INT64_MAX : now + bound_ns;
    return park_flavour(g_probe.flavour, line, snapshot, deadline, g_probe.rate_hz);
}
