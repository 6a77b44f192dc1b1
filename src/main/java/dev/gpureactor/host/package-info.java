/**
 * Hosts: the ways a thread idles while a wait is pending and a consumer is told. Platform threads
 * ({@link dev.gpureactor.host.Watcher}, and {@code GpuFuture.join()} on a platform thread, which runs
 * the plan inline), {@code CompletionStage} code (through {@code GpuFuture.toCompletableFuture()} and
 * {@code onComplete}), and io_uring ({@code dev.gpureactor.host.uring}).
 */
package dev.gpureactor.host;
