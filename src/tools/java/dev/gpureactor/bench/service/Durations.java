package dev.gpureactor.bench.service;

import java.time.Duration;
import java.util.Locale;

/** Durations as the command line writes them: {@code 100us}, {@code 1.5ms}, {@code 2s}, {@code 500ns}, {@code 0}. */
public final class Durations {
    private Durations() {}

    /** {@code text} as a duration; {@code option} names it in the error. */
    public static Duration parse(String text, String option) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("0")) return Duration.ZERO;
        String[][] units = {{"ns", "1"}, {"us", "1000"}, {"µs", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
        for (String[] u : units) {
            if (t.endsWith(u[0]) && !(u[0].equals("s") && (t.endsWith("ns") || t.endsWith("us") || t.endsWith("ms")))) {
                try {
                    double v = Double.parseDouble(t.substring(0, t.length() - u[0].length()).trim());
                    if (v < 0 || Double.isNaN(v) || v > 3600e9) throw new NumberFormatException();
                    return Duration.ofNanos(Math.round(v * Long.parseLong(u[1])));
                } catch (NumberFormatException e) {
                    break;
                }
            }
        }
        throw new IllegalArgumentException(option + ": \"" + text + "\" is not a duration like 100us, 1ms, 1.6s");
    }
}
