/**
 * The simulated device, the default everywhere: {@link dev.gpureactor.backend.sim.SimDevice} hands out
 * {@link dev.gpureactor.backend.sim.SimStream}s, each a platform thread that runs queued work in order
 * and stores sequence numbers into its slot of a completion line, as a GPU stream would; its port
 * reports failures the way a driver's query does. What the demo, the soak and the tests run on.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.backend}, {@code core},
 * {@code loader} and the JDK; never a sibling backend.
 */
package dev.gpureactor.backend.sim;
