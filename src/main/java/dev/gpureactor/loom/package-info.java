/**
 * The API: {@link dev.gpureactor.loom.GpuReactor} (the entry point, built by its {@link
 * dev.gpureactor.loom.GpuReactor.Builder}) turns a descriptor and its port into a {@link
 * dev.gpureactor.loom.GpuFuture} (the {@code Future} state machine) that a virtual thread awaits; {@link
 * dev.gpureactor.loom.GpuExecutorService} is the drop-in {@code ExecutorService}; {@link
 * dev.gpureactor.loom.RunStats} and {@link dev.gpureactor.loom.GpuReactorMXBean} report what it did; {@link
 * dev.gpureactor.loom.Scheduler} names the carrier designs. The {@code naive} executor kind and the future's
 * stage adapter are package-private here.
 *
 * <p>The threads live in the non-exported {@code dev.gpureactor.parker} (the parkers) and {@code
 * dev.gpureactor.carrier} (the carrier pool).
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.core}, {@code parker}, {@code carrier},
 * {@code park}, {@code loader} and the JDK; it knows no backend and no host (the command line composes
 * those), and nothing it uses names it.
 */
package dev.gpureactor.loom;
