/*
 * garpark: the hardware park on a 64-byte completion line (x86-64 WAITPKG, AMD MONITORX, aarch64 LDXR+WFE/WFET).
 *
 * This header is the source of truth for the Java binding dev.gpureactor.park.NativePark: a test parses
 * every GARPARK_API declaration below and checks that the library exports it and that the Java
 * FunctionDescriptor matches. Keep each declaration on one line, with fixed-width types only.
 *
 * Invariants:
 *  - Probing reads CPUID (x86-64) or getauxval (aarch64) only; it never tries an instruction.
 *  - garpark_park runs a wait instruction only when the probe found it; otherwise it refuses.
 *  - Every park is bounded by bound_ns on CLOCK_MONOTONIC (the clock of Java's System.nanoTime),
 *    whatever the wait instruction's own timer does.
 *  - The line is read only through atomic loads (acquire), never plain loads.
 */
#ifndef GARPARK_H
#define GARPARK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GARPARK_API __attribute__((visibility("default")))

/* Bumped on any change to a declaration below; the Java side refuses a library of another ABI. */
#define GARPARK_ABI_VERSION 1

/* Flavours, as garpark_probe returns them. */
#define GARPARK_NONE 0   /* no usable wait: the note says why */
#define GARPARK_UMWAIT 1 /* x86-64 WAITPKG: umonitor + umwait (C0.2) to an absolute TSC deadline */
#define GARPARK_MWAITX 2 /* x86-64 AMD MONITORX: monitorx + mwaitx with its timer, a relative TSC-rate count */
#define GARPARK_WFE 3    /* aarch64: ldxr + wfe, bounded by the kernel's event stream (HWCAP_EVTSTRM) */
#define GARPARK_WFET 4   /* aarch64 FEAT_WFxT: ldxr + wfet to an absolute CNTVCT deadline */

/* Results of garpark_park. */
#define GARPARK_BOUND 0    /* the bound passed and the line still equals the snapshot */
#define GARPARK_CHANGED 1  /* some word of the line differs from the snapshot */
#define GARPARK_REFUSED -1 /* no wait instruction on this CPU: nothing was executed */
#define GARPARK_BAD_ARG -2 /* a null pointer, or a line not aligned to 64 bytes */

/* The ABI version this library was built with (GARPARK_ABI_VERSION). */
GARPARK_API int32_t garpark_abi_version(void);

/*
 * Probes once (later calls return the kept result) and returns the flavour. *rate_hz receives the rate
 * of the counter the deadlines are counted in (TSC on x86-64, CNTFRQ on aarch64; 0 if unknown). note
 * receives a NUL-terminated text of at most note_cap bytes: why there is no wait, or how the flavour and
 * rate were found. Any pointer may be null. May take a few milliseconds the first time (TSC calibration).
 */
GARPARK_API int32_t garpark_probe(uint64_t *rate_hz, char *note, int64_t note_cap);

/*
 * Parks the calling thread until some word of the 64-byte line differs from snapshot (eight words), or
 * bound_ns passes. Returns GARPARK_CHANGED, GARPARK_BOUND, GARPARK_REFUSED or GARPARK_BAD_ARG. Blocking:
 * never link it as a "critical" (no thread-state transition) function.
 */
GARPARK_API int32_t garpark_park(const uint64_t *line, const uint64_t *snapshot, int64_t bound_ns);

/* 1 when some word of the line differs from snapshot, else 0 (acquire loads); GARPARK_BAD_ARG as for park.
 * Tiny and non-blocking. */
GARPARK_API int32_t garpark_differs(const uint64_t *line, const uint64_t *snapshot);

/* The raw counter the deadlines use (rdtsc, or cntvct_el0); 0 where there is none. Tiny and non-blocking. */
GARPARK_API int64_t garpark_ticks(void);

#ifdef __cplusplus
}
#endif

#endif /* GARPARK_H */
