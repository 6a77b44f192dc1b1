package dev.gpureactor.json;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The project's one JSON writer, for every {@code --json} form and report: maps, collections, strings,
 * numbers (doubles to three decimals, or {@link Significant} ones; a non-finite one is {@code null}) and
 * booleans. And its one reader ({@link #read}), for documents the JDK writes (the soak reads the JVM's
 * thread dump with it).
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
            case Double d -> decimal(b, d);
            case Float f -> decimal(b, f.doubleValue());
            case Number n -> b.append(n);
            case Boolean bo -> b.append(bo);
            default -> string(b, String.valueOf(v));
        }
    }

    /** Three decimals; JSON has no NaN or infinity, so a measure with no value (a ratio over nothing) is null. */
    private static void decimal(StringBuilder b, double d) {
        b.append(Double.isFinite(d) ? String.format(java.util.Locale.ROOT, "%.3f", d) : "null");
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

    /**
     * Reads one JSON document: objects as {@code Map<String, Object>} (in document order), arrays as
     * {@code List<Object>}, strings, numbers as {@link BigDecimal}, booleans and {@code null}.
     *
     * @throws IllegalArgumentException where the text is not one JSON value
     */
    public static Object read(String text) {
        Reader r = new Reader(text);
        Object v = r.value();
        r.skipSpace();
        if (r.at < text.length()) throw r.error("text after the value");
        return v;
    }

    /** A recursive-descent reader over one document; {@code at} is the next character. */
    private static final class Reader {
        private final String s;
        private int at;

        Reader(String s) { this.s = s; }

        Object value() {
            skipSpace();
            if (at >= s.length()) throw error("a value");
            char c = s.charAt(at);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 't' -> word("true", Boolean.TRUE);
                case 'f' -> word("false", Boolean.FALSE);
                case 'n' -> word("null", null);
                default -> number();
            };
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            at++; // '{'
            skipSpace();
            if (peek() == '}') {
                at++;
                return m;
            }
            while (true) {
                skipSpace();
                if (peek() != '"') throw error("a member name");
                String k = string();
                skipSpace();
                expect(':');
                m.put(k, value());
                skipSpace();
                if (peek() == ',') {
                    at++;
                    continue;
                }
                expect('}');
                return m;
            }
        }

        private List<Object> array() {
            List<Object> l = new ArrayList<>();
            at++; // '['
            skipSpace();
            if (peek() == ']') {
                at++;
                return l;
            }
            while (true) {
                l.add(value());
                skipSpace();
                if (peek() == ',') {
                    at++;
                    continue;
                }
                expect(']');
                return l;
            }
        }

        private String string() {
            at++; // '"'
            StringBuilder b = new StringBuilder();
            while (true) {
                if (at >= s.length()) throw error("the end of a string");
                char c = s.charAt(at++);
                if (c == '"') return b.toString();
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (at >= s.length()) throw error("an escape");
                char e = s.charAt(at++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        if (at + 4 > s.length()) throw error("four hex digits");
                        try {
                            b.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
                        } catch (NumberFormatException x) {
                            throw error("four hex digits");
                        }
                        at += 4;
                    }
                    default -> throw error("an escape");
                }
            }
        }

        private Object word(String w, Object v) {
            if (!s.startsWith(w, at)) throw error(w);
            at += w.length();
            return v;
        }

        private BigDecimal number() {
            int from = at;
            while (at < s.length() && "+-0123456789.eE".indexOf(s.charAt(at)) >= 0) at++;
            try {
                return new BigDecimal(s.substring(from, at));
            } catch (NumberFormatException x) {
                at = from;
                throw error("a value");
            }
        }

        void skipSpace() {
            while (at < s.length() && Character.isWhitespace(s.charAt(at))) at++;
        }

        private char peek() { return at < s.length() ? s.charAt(at) : 0; }

        private void expect(char c) {
            if (peek() != c) throw error("'" + c + "'");
            at++;
        }

        IllegalArgumentException error(String wanted) {
            return new IllegalArgumentException("JSON: expected " + wanted + " at offset " + at);
        }
    }
}
