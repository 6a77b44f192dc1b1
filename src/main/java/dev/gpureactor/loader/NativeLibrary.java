package dev.gpureactor.loader;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A native library loaded by {@link NativeLoader} (the one loader: the park library from the jar, a
 * user-given driver path such as {@code gar.cuda.library}, a system library by its loader name): its
 * name (the path or loader name it was asked for), the file it was loaded from (empty for a library the
 * dynamic linker found by name), and its symbols. It stays loaded for the life of the JVM.
 */
@SuppressWarnings("restricted") // FFM: downcall handles are linked here
public record NativeLibrary(String name, Optional<Path> path, SymbolLookup lookup) {
    public NativeLibrary {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(lookup, "lookup");
    }

    /**
     * The address of {@code symbol}.
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} when the library does not export it
     */
    public MemorySegment find(String symbol) {
        return symbol(symbol).orElseThrow(() -> missing(symbol));
    }

    /** The address of {@code symbol}, if the library exports it. */
    public Optional<MemorySegment> symbol(String symbol) {
        return lookup.find(symbol);
    }

    /** A downcall handle for {@code symbol} with exactly {@code descriptor}, if the library exports it. */
    public Optional<MethodHandle> downcall(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
        return symbol(symbol).map(address -> Linker.nativeLinker().downcallHandle(address, descriptor, options));
    }

    /** The coded error for a symbol this library lacks: {@link ErrorCode#NativeUnavailable}. */
    public ReactorException missing(String symbol) {
        return unavailable(name, "it has no symbol " + symbol, null);
    }

    /** {@link ErrorCode#NativeUnavailable}: (library, why). */
    public static ReactorException unavailable(String library, String why, Throwable cause) {
        return new ReactorException(ErrorCode.NativeUnavailable, cause, library, why);
    }

    /** The NUL-terminated string at {@code pointer}, or {@code null} for a null pointer. */
    public static String cString(MemorySegment pointer) {
        if (pointer == null || pointer.address() == 0) return null;
        return pointer.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /** For {@code invokeExact} call sites: rethrows unchecked throwables, wraps anything else. */
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        throw new IllegalStateException("downcall failed", t);
    }

    @Override
    public String toString() {
        return name + path.filter(p -> !p.toString().equals(name)).map(p -> " (" + p + ")").orElse("");
    }
}
