/**
 * The io_uring host (Linux): deadline sleeps as {@code IORING_OP_TIMEOUT} on a ring driven by hand
 * through FFM (raw {@code io_uring_setup}/{@code io_uring_enter} via libc {@code syscall}, mmap'd
 * rings, no liburing). {@link dev.gpureactor.host.uring.Ring} is the ring (one per thread),
 * {@link dev.gpureactor.host.uring.UringSleeper} the {@link dev.gpureactor.core.Sleeper} the
 * io-uring executor's parkers use, and {@link dev.gpureactor.host.uring.UringProbe} the
 * {@code ioUring} capability that {@link dev.gpureactor.core.ExecutorKind#resolve} reads.
 *
 * <p>The line park of this executor is the parker's word wait: not a futex,
 * not polling through the ring.
 *
 * {@link dev.gpureactor.host.uring.UringHost} composes them with a reactor: one call gives a
 * {@code GpuReactor.Builder} with the probed capabilities and the ring sleeper.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.host}, {@code core},
 * {@code park}, and {@code loom} (only for the builder {@code UringHost} configures), and the JDK.
 */
package dev.gpureactor.host.uring;
