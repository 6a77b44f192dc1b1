package dev.gpureactor.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A coded condition the library went on through (a fallback, a leak instead of a free): a value
 * the caller can log, inspect by {@link #code()}, or turn into an error with {@link #raise()}.
 */
public record Warning(ErrorCode code, List<String> args) {
    public Warning {
        Objects.requireNonNull(code, "code");
        args = List.copyOf(args);
    }

    public static Warning of(ErrorCode code, Object... args) {
        return new Warning(code, texts(args));
    }

    public String message() { return code.render(args); }

    public ReactorException raise() { return new ReactorException(code, args.toArray()); }

    @Override
    public String toString() { return message(); }

    static List<String> texts(Object[] args) {
        return Arrays.stream(args).map(String::valueOf).toList();
    }
}
