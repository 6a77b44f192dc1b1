/**
 * The native loader: {@link dev.gpureactor.loader.NativeLoader} opens a library by path or loader name, and
 * the library's own native code only from private, hash-checked copies; {@link
 * dev.gpureactor.loader.NativeLibrary} is what it opened (symbols by name, the coded errors for a missing
 * library or symbol); {@link dev.gpureactor.loader.NativeAccess} says, once per process, whether restricted
 * FFM calls run without the JDK's warning. The parks ({@code park}) and the vendor bindings ({@code backend})
 * load through it. Not exported. Depends on {@code dev.gpureactor.core} and the JDK only.
 */
package dev.gpureactor.loader;
