/**
 * The scale benchmark's engine ({@code gar scale}, docs/SCALE.md): many lines with eight busy slots each,
 * idle lines, one store fanning out to many waiting virtual threads, and many waiters over eight
 * lines, each measured on the simulated device and judged against its goals in the same run;
 * the floor under the last two ({@code UnparkFloor}: the same shapes unparked without the reactor, on
 * the JDK's scheduler and on the reactor's carrier pool); and a JFR recording of {@code jdk.VirtualThreadPinned} over the whole run.
 *
 * <p>May use: {@code core}, {@code park}, {@code loom}, {@code backend}, {@code json}, {@code bench}
 * (its {@code Goal} and the many-futures phase), {@code bench.service} (its {@code ThreadCpu}) and the
 * JDK (including {@code com.sun.management} and {@code jdk.jfr}). Not {@code cli}: the command line
 * and the tests drive it through {@link dev.gpureactor.bench.scale.ScaleBench}.
 */
package dev.gpureactor.bench.scale;
