package dev.gpureactor.core;

import java.time.Duration;
import java.util.Objects;

/**
 * A {@link Duration} setting in nanoseconds, or a coded {@link ErrorCode#InvalidArgument} saying
 * what was wrong and what would be right. Every duration the library takes as a setting goes
 * through here, so a negative value, a zero where zero means nothing, and a value longer than a
 * {@code long} of nanoseconds (about 292 years, where {@link Duration#toNanos()} throws an
 * uncoded {@link ArithmeticException}) are all refused the same way.
 */
public final class Durations {
    /** The longest duration a {@code long} of nanoseconds holds (about 292 years). */
    public static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);

    private static final String UP_TO_MAX = "at most " + MAX + " (a long of nanoseconds)";

    private Durations() {}

    /**
     * {@code d} in nanoseconds, from 0 up to {@link #MAX}.
     *
     * @param name the setting's name, as the error shows it
     * @param d the duration
     * @return the nanoseconds
     * @throws ReactorException {@link ErrorCode#InvalidArgument} when {@code d} is negative or longer than {@link #MAX}
     */
    public static long nonNegativeNanos(String name, Duration d) {
        return nanos(name, d, 0, Long.MAX_VALUE, ">= 0 and " + UP_TO_MAX);
    }

    /**
     * {@code d} in nanoseconds, above 0 and up to {@link #MAX}: for settings where zero means nothing
     * (an interval, a period).
     *
     * @param name the setting's name, as the error shows it
     * @param d the duration
     * @return the nanoseconds
     * @throws ReactorException {@link ErrorCode#InvalidArgument} when {@code d} is zero, negative or longer than {@link #MAX}
     */
    public static long positiveNanos(String name, Duration d) {
        return nanos(name, d, 1, Long.MAX_VALUE, "> 0 and " + UP_TO_MAX);
    }

    /**
     * {@code d} in nanoseconds, between {@code minNanos} and {@code maxNanos} inclusive.
     *
     * @param name     the setting's name, as the error shows it
     * @param expected what would be right, as the error shows it (e.g. {@code "between 1 µs and 10 ms"})
     * @param d the duration
     * @param minNanos the min, in nanoseconds
     * @param maxNanos the max, in nanoseconds
     * @return the nanoseconds
     * @throws ReactorException {@link ErrorCode#InvalidArgument} when {@code d} is outside the range
     */
    public static long nanos(String name, Duration d, long minNanos, long maxNanos, String expected) {
        Objects.requireNonNull(d, name);
        // Compared as Durations first: toNanos() throws past a long of nanoseconds.
        if (d.compareTo(Duration.ofNanos(minNanos)) < 0 || d.compareTo(Duration.ofNanos(maxNanos)) > 0) {
            throw new ReactorException(ErrorCode.InvalidArgument, name, d, expected);
        }
        return d.toNanos();
    }

    /**
     * {@code d} as a person reads it in a message: {@code "1 ns"}, {@code "250 µs"}, {@code "1.5 ms"},
     * {@code "2 s"} (three significant digits at most, trailing zeros dropped), and past a minute
     * {@link Duration#toString()}; a limit of zero or less says that it does not wait.
     *
     * @param d the duration
     * @return the text
     */
    public static String text(Duration d) {
        Objects.requireNonNull(d, "d");
        if (d.isZero() || d.isNegative()) {
            String v = d.isZero() ? "0" : d.compareTo(Duration.ofMinutes(-1)) < 0 ? d.toString() : "-" + text(d.negated());
            return v + " (a limit of zero or less does not wait)";
        }
        if (d.compareTo(Duration.ofMinutes(1)) > 0) return d.toString(); // also where nanoseconds would overflow
        long ns = d.toNanos();
        if (ns < 1_000) return ns + " ns";
        String[] units = {"µs", "ms", "s"};
        double v = ns / 1_000.0;
        int u = 0;
        while (v >= 1_000 && u < units.length - 1) {
            v /= 1_000;
            u++;
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString() + " " + units[u];
    }
}
