package dev.gpureactor.json;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Collection;
import java.util.Map;

/**
 * The project's one JSON writer, for every {@code --json} form and report: maps, collections, strings,
 * numbers (doubles to three decimals, or {@link Significant} ones) and booleans.
 */
public final class Json {
    private static final MathContext SIX_DIGITS = new MathContext(6);

    private Json() {}

    /**
     * A measurement, written with six significant digits, trailing zeros dropped, never in exponent
     * form ({@code 0.000000123457}, {@code 123457000}); a non-finite one is written as {@code null}.
     * The bench report writes its doubles this way.
     */
    public record Significant(double value) {}

    public static Significant significant(double value) {
        return new Significant(value);
    }

    public static String write(Object v) {
        StringBuilder b = new StringBuilder();
        write(b, v);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v) {
        switch (v) {
            case null -> b.append("null");
            case Map<?, ?> m -> {
                b.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!first) b.append(',');
                    first = false;
                    string(b, String.valueOf(e.getKey()));
                    b.append(':');
                    write(b, e.getValue());
                }
                b.append('}');
            }
            case Collection<?> c -> {
                b.append('[');
                boolean first = true;
                for (Object o : c) {
                    if (!first) b.append(',');
                    first = false;
                    write(b, o);
                }
                b.append(']');
            }
            case Significant(double d) -> b.append(Double.isFinite(d)
                    ? new BigDecimal(d).round(SIX_DIGITS).stripTrailingZeros().toPlainString() : "null");
            case Double d when !d.isNaN() && !d.isInfinite() -> b.append(String.format(java.util.Locale.ROOT, "%.3f", d));
            case Number n when !(n instanceof Double) -> b.append(n);
            case Boolean bo -> b.append(bo);
            default -> string(b, String.valueOf(v));
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c)); else b.append(c);
                }
            }
        }
        b.append('"');
    }
}
