/*
 * The park library's functions as function-pointer types, for jextract (scripts/jextract.sh).
 *
 * jextract binds a function to a symbol at class initialisation through one lookup fixed at generation
 * time; the library here is chosen at run time (the jar's copy, checked and loaded by NativeLoader). A
 * function-pointer typedef makes jextract generate the exact FunctionDescriptor and an address-taking
 * invoke(funcPtr, ...) with no lookup, so NativePark supplies the address from its own library.
 *
 * Each typedef must be the exact type of its function: native/park/build.sh compiles this header with
 * GARPARK_FFI_CHECK and -Werror, which assigns every function to its typedef (a mismatch does not build).
 */
#ifndef GARPARK_FFI_H
#define GARPARK_FFI_H

#include "../park/garpark.h"

typedef int32_t (*garpark_abi_version_fn)(void);
typedef int32_t (*garpark_probe_fn)(uint64_t *rate_hz, char *note, int64_t note_cap);
typedef int32_t (*garpark_park_fn)(const uint64_t *line, const uint64_t *snapshot, int64_t bound_ns);
typedef int32_t (*garpark_differs_fn)(const uint64_t *line, const uint64_t *snapshot);
typedef int64_t (*garpark_ticks_fn)(void);

#ifdef GARPARK_FFI_CHECK
garpark_abi_version_fn garpark_ffi_check_abi_version = garpark_abi_version;
garpark_probe_fn garpark_ffi_check_probe = garpark_probe;
garpark_park_fn garpark_ffi_check_park = garpark_park;
garpark_differs_fn garpark_ffi_check_differs = garpark_differs;
garpark_ticks_fn garpark_ffi_check_ticks = garpark_ticks;
#endif

#endif
