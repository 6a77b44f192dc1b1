/**
 * The raw CUDA driver calls: {@link dev.gpureactor.backend.cuda.raw.CudaCall}, every function the binding
 * resolves (its symbol and descriptor), and {@link dev.gpureactor.backend.cuda.raw.CudaRaw}, one static
 * call per function returning the unchecked {@code CUresult}, with the {@code cuda.h} constants the library
 * uses. Not exported: {@code CudaDriver}'s checked calls are the API; the tools and tests call these on the
 * class path.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.backend} (the binding's address
 * table), {@code backend.cuda.ffi} and the JDK; {@code backend.cuda} uses it, nothing else in the library.
 */
package dev.gpureactor.backend.cuda.raw;
