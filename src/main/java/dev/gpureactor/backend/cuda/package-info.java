/**
 * The CUDA backend: the driver API ({@code libcuda.so.1}) bound by hand through FFM
 * ({@link dev.gpureactor.backend.cuda.CudaDriver}, resolved at run time), a
 * {@link dev.gpureactor.backend.MappedLine} vendor (streams store into its lines with
 * {@code cuStreamWriteValue64}), the {@link dev.gpureactor.backend.cuda.CudaPort} whose
 * {@code cuStreamQuery} is the error authority, raw stream handles from any other binding
 * ({@link dev.gpureactor.backend.cuda.CuStream}), and the probe {@code gar probe} lists
 * ({@link dev.gpureactor.backend.cuda.CudaBackend}). See {@code docs/CUDA.md}.
 *
 * <p>The raw driver calls and their constants live in the non-exported {@code backend.cuda.raw}; this
 * package holds what a user calls.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.backend} (the mapped page, the
 * line driver, the probe's report records), {@code backend.cuda.raw}, {@code backend.cuda.ffi}, {@code
 * core}, {@code loader} and the JDK; never a sibling backend, and {@code backend} never uses it.
 */
package dev.gpureactor.backend.cuda;
