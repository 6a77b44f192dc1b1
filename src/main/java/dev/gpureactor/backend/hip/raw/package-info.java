/**
 * The raw HIP runtime calls: {@link dev.gpureactor.backend.hip.raw.HipCall}, every function the binding
 * resolves (its symbol and descriptor), and {@link dev.gpureactor.backend.hip.raw.HipRaw}, one static call
 * per function returning the unchecked {@code hipError_t}, with the {@code hip_runtime_api.h} constants the
 * library uses. Not exported: {@code HipRuntime}'s checked calls are the API; the tools and tests call these
 * on the class path.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.backend} (the binding's address
 * table), {@code backend.hip.ffi} and the JDK; {@code backend.hip} uses it, nothing else in the library.
 */
package dev.gpureactor.backend.hip.raw;
