/**
 * The HIP backend: the HIP runtime ({@code libamdhip64.so}) bound by hand through FFM
 * ({@link dev.gpureactor.backend.hip.HipRuntime}, resolved at run time), a
 * {@link dev.gpureactor.backend.MappedLine} vendor (streams store into its lines), the
 * {@link dev.gpureactor.backend.hip.HipPort} whose {@code hipStreamQuery} is the error authority, raw
 * stream handles ({@link dev.gpureactor.backend.hip.HipStream}), and the probe {@code gar probe} lists
 * ({@link dev.gpureactor.backend.hip.HipBackend}). Tested against a stand-in driver; see
 * {@code docs/HIP.md}.
 *
 * <p>The raw runtime calls and their constants live in the non-exported {@code backend.hip.raw}; this
 * package holds what a user calls.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.backend}, {@code backend.hip.raw},
 * {@code backend.hip.ffi}, {@code core}, {@code loader} and the JDK; never a sibling backend, and {@code backend} never uses it.
 */
package dev.gpureactor.backend.hip;
