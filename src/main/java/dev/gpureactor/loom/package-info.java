/**
 * The virtual-thread integration: {@link dev.gpureactor.loom.GpuReactor} (the entry point) turns a
 * descriptor and its port into a {@link dev.gpureactor.loom.GpuFuture} (the {@code Future} state machine),
 * whose registration node, a {@link dev.gpureactor.loom.LineWait}, is what the parker holds; one
 * {@link dev.gpureactor.loom.LineParker} per completion line or group of lines, run by a
 * {@link dev.gpureactor.loom.ParkerThread}, sleeps to the predicted completion, parks on the lines and
 * unparks exactly the joiners whose words were reached (or runs one itself: hosting); what it does
 * next is decided by its single-threaded turn ({@link dev.gpureactor.loom.LineGroup} over one
 * {@link dev.gpureactor.loom.LineWatch} per line, answering a {@link dev.gpureactor.loom.Turn}); the
 * {@link dev.gpureactor.loom.CarrierPool} runs the virtual threads through the one adapter to the JDK's
 * scheduler hook, {@link dev.gpureactor.loom.VirtualThreads}; {@link dev.gpureactor.loom.NaiveWait} is
 * the {@code naive} executor kind; {@link dev.gpureactor.loom.GpuExecutorService} the drop-in
 * {@code ExecutorService}.
 *
 * <p>This is where the library's threads live. {@code CarrierPool → ParkerThread → LineParker →
 * CarrierPool} is a class cycle inside this package (a parker hands wakes to the pool that starts
 * hosted threads on it); it is no package cycle.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.core}, {@code dev.gpureactor.park}
 * and the JDK only; it knows no backend and no host (the command line composes those).
 */
package dev.gpureactor.loom;
