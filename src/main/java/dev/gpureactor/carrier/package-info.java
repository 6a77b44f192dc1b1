/**
 * The carriers: the {@link dev.gpureactor.carrier.CarrierPool} runs the reactor's virtual threads, the JDK's
 * own carrier threads in a {@code ForkJoinPool} ({@link dev.gpureactor.carrier.ForkJoinCarriers}) or a queue
 * ({@link dev.gpureactor.carrier.QueuedCarriers}), through the one adapter to the JDK's scheduler hook
 * ({@link dev.gpureactor.carrier.VirtualThreads}); the {@link dev.gpureactor.carrier.CarrierWatch} stands in
 * for carriers a pinned thread blocks in the OS, and rests while the pool is quiet ({@link
 * dev.gpureactor.carrier.WatchRest}); {@link dev.gpureactor.carrier.LiveThreads} keeps the pool
 * alive while its threads live; {@link dev.gpureactor.carrier.SchedulerProperties} reads the JDK's own
 * scheduler settings for the pool's sizes. A thread that may run a woken task itself (a parker's, and a carrier's
 * between two tasks, {@link dev.gpureactor.carrier.CarrierCapture}) is a {@link
 * dev.gpureactor.carrier.WakeCapture}; what a carrier runs between two tasks the reactor sets
 * ({@link dev.gpureactor.carrier.CarrierPool#betweenTasks}). {@link dev.gpureactor.carrier.OwnThreads} records the
 * platform threads a part of the reactor starts, for its close to join. {@link dev.gpureactor.carrier.PoolControls} are
 * the lines of the pool's handshakes a jcstress negative control removes.
 *
 * <p>Not exported: the pool's scheduler hooks ({@code execute}, {@code onStart}, {@code onContinue}) are
 * the JDK's to call, not a user's.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.core}, the JDK and the JDK's {@code
 * jdk.internal.misc.CarrierThread}; it never names {@code parker} or {@code loom}, which use it.
 */
package dev.gpureactor.carrier;
