package dev.gpureactor.park;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A native library loaded by {@link NativeLoader}: its name, the file it was loaded from (empty for a
 * library the dynamic linker found by name), and its symbols. It stays loaded for the life of the JVM.
 */
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
        return lookup.find(symbol).orElseThrow(
            () -> new ReactorException(ErrorCode.NativeUnavailable, name, "it does not export " + symbol));
    }

    @Override
    public String toString() {
        return name + path.map(p -> " (" + p + ")").orElse("");
    }
}
