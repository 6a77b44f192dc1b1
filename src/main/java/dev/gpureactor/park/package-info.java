/**
 * Bounded parks on a {@link dev.gpureactor.core.CompletionLine}: {@link dev.gpureactor.park.WordWait}
 * (the hardware monitor/wait through the native library {@code garpark}, probed once), the pure-Java
 * {@link dev.gpureactor.park.FallbackPark} that runs everywhere, both behind the sealed
 * {@link dev.gpureactor.park.LinePark}; {@link dev.gpureactor.park.TimerSlack}; and
 * {@link dev.gpureactor.park.SlowQueries}, how a thread that watches many waits tells a port whose query
 * blocks them all, and {@link dev.gpureactor.park.PortFault}, how what a port's call threw ends that port's
 * waits coded (the parkers, a joiner running its plan and the std host's watcher share both). Native code loads
 * through {@code dev.gpureactor.loader}. Depends on {@code dev.gpureactor.core},
 * {@code dev.gpureactor.loader} and the JDK only. Nothing here starts a thread; the parker threads that
 * use these parks live in {@code dev.gpureactor.loom}.
 */
package dev.gpureactor.park;
