package dev.gpureactor.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A coded condition the library went on through (a fallback, a leak instead of a free): a value
 * the caller can log, inspect by {@link #code()}, or turn into an error with {@link #raise()}.
 *
 * @param code the code
 * @param args the arguments
 */
public record Warning(ErrorCode code, List<String> args) {
    /** Checks {@code code} is not null and copies {@code args}. */
    public Warning {
        Objects.requireNonNull(code, "code");
        args = List.copyOf(args);
    }

    /**
     * A warning with {@code code}'s form filled with {@code args}.
     *
     * @param code the code
     * @param args the form's arguments, in order (rendered with {@code String.valueOf})
     * @return the warning
     */
    public static Warning of(ErrorCode code, Object... args) {
        return new Warning(code, texts(args));
    }

    /**
     * The rendered text: the code's tag and name, then its filled form.
     *
     * @return the message
     */
    public String message() { return code.render(args); }

    /**
     * This warning as an exception, for a caller that treats it as an error.
     *
     * @return the exception (not thrown)
     */
    public ReactorException raise() { return new ReactorException(code, args.toArray()); }

    @Override
    public String toString() { return message(); }

    static List<String> texts(Object[] args) {
        if (args == null) return List.of(); // a null array, as no arguments: each placeholder shows "?"
        return Arrays.stream(args).map(String::valueOf).toList();
    }
}
