package dev.gpureactor.backend;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.JvmFlags;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A native library opened at run time through FFM, and its symbols. Nothing links against a vendor
 * library at build time: every entry point is looked up here by name, and a library or symbol that
 * is missing is the coded error {@link ErrorCode#NativeUnavailable} naming what is missing.
 *
 * <p>A name with a {@code /} is a path and is opened as that file; any other name goes through the
 * dynamic loader's search (so {@code libcuda.so.1} finds the installed driver, or the one already
 * loaded in the process). A library stays loaded for the life of the JVM (drivers are not unloaded),
 * and each name is opened once.
 */
@SuppressWarnings("restricted") // FFM: the one place libraries are opened and symbols linked
public final class NativeLibrary {
    private static final ConcurrentHashMap<String, NativeLibrary> OPEN = new ConcurrentHashMap<>();
    private static final Linker LINKER = Linker.nativeLinker();

    private final String name;
    private final SymbolLookup lookup;

    private NativeLibrary(String name, SymbolLookup lookup) {
        this.name = name;
        this.lookup = lookup;
    }

    /**
     * Opens a library by path (a name containing {@code /}) or by loader name.
     *
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} naming {@code pathOrName} and why
     */
    public static NativeLibrary load(String pathOrName) {
        Objects.requireNonNull(pathOrName, "pathOrName");
        NativeLibrary open = OPEN.get(pathOrName);
        if (open != null) return open;
        SymbolLookup lookup;
        try {
            // A path goes to the loader as it is: on macOS the system frameworks live in the dyld
            // shared cache, so a path that opens need not exist as a file.
            lookup = SymbolLookup.libraryLookup(pathOrName, Arena.global());
        } catch (IllegalArgumentException e) {
            boolean isPath = pathOrName.indexOf('/') >= 0;
            String why = isPath && !Files.exists(Path.of(pathOrName)) ? "no such file" : "cannot be loaded (" + e.getMessage() + ")";
            throw unavailable(pathOrName, why, e);
        } catch (IllegalCallerException e) {
            throw unavailable(pathOrName, "native access is not enabled; run with "
                    + JvmFlags.enableNativeAccess(NativeLibrary.class.getModule()), e);
        }
        NativeLibrary lib = new NativeLibrary(pathOrName, lookup);
        NativeLibrary raced = OPEN.putIfAbsent(pathOrName, lib);
        return raced != null ? raced : lib;
    }

    /** The path or loader name this library was opened by. */
    public String name() { return name; }

    /** The address of a symbol, if the library exports it. */
    public Optional<MemorySegment> find(String symbol) {
        return lookup.find(symbol);
    }

    /** A downcall handle for {@code symbol} with exactly {@code descriptor}, if the library exports it. */
    public Optional<MethodHandle> downcall(String symbol, FunctionDescriptor descriptor) {
        return find(symbol).map(address -> LINKER.downcallHandle(address, descriptor));
    }

    /** The coded error for a symbol this library lacks. */
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
    public String toString() { return name; }
}
