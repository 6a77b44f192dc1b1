/**
 * The devices {@code gar demo} runs on: {@link dev.gpureactor.demo.DemoDevice}, whose one job is "a
 * signal that completes after {@code d} of work" on one of its streams, answered by the simulated device
 * and by the CUDA and HIP bindings ({@code DriverDemoDevice}: a host function holds each stream for the
 * work, then a device-side memset writes the payload and the port stores the word).
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses the library's packages ({@code core}, {@code park},
 * {@code loom}, {@code backend}, {@code host} and their sub-packages), {@code dev.gpureactor.json} and the
 * JDK; never {@code dev.gpureactor.cli}, which drives it.
 */
package dev.gpureactor.demo;
