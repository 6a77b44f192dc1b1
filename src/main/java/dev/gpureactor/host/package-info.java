/**
 * Hosts: the ways a thread idles while a wait is pending and a consumer is told. Platform threads
 * ({@link dev.gpureactor.host.Watcher}, and {@code GpuFuture.join()} on a platform thread, which runs
 * the plan inline), {@code CompletionStage} code (through {@code GpuFuture.toCompletableFuture()} and
 * {@code onComplete}), and io_uring ({@code dev.gpureactor.host.uring}).
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.core}, {@code dev.gpureactor.park}
 * and the JDK only; never its sub-package {@code uring}, which builds on it.
 */
package dev.gpureactor.host;
