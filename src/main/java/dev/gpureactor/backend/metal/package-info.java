/**
 * The Metal backend (macOS): {@code libobjc} and {@code Metal.framework} over FFM
 * ({@link dev.gpureactor.backend.metal.MetalRuntime}), an {@code MTLSharedEvent}
 * ({@link dev.gpureactor.backend.metal.SharedEvent}) as the completion source and its
 * {@link dev.gpureactor.backend.metal.SharedEventPort}, and the probe
 * ({@link dev.gpureactor.backend.metal.MetalBackend}). Written, not run; see {@code docs/METAL.md}.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.backend}, {@code core},
 * {@code loader} and the JDK; never a sibling backend, and {@code backend} never uses it.
 */
package dev.gpureactor.backend.metal;
