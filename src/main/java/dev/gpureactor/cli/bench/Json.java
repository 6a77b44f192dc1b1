package dev.gpureactor.cli.bench;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * A minimal JSON writer for the bench report: objects, arrays, strings, numbers and booleans,
 * commas placed by nesting depth. Non-finite numbers are written as {@code null} (JSON has none).
 */
final class Json {
    private final StringBuilder out = new StringBuilder();
    /** Per open container: whether it already holds an element. */
    private final java.util.ArrayDeque<boolean[]> stack = new java.util.ArrayDeque<>();
    private boolean afterKey;

    Json open(char bracket) {
        element();
        out.append(bracket);
        stack.push(new boolean[1]);
        return this;
    }

    Json close(char bracket) {
        stack.pop();
        out.append(bracket);
        return this;
    }

    Json key(String k) {
        element();
        string(k);
        out.append(':');
        afterKey = true;
        return this;
    }

    Json field(String k, String v) {
        key(k);
        element();
        string(v);
        return this;
    }

    Json field(String k, long v) {
        key(k);
        element();
        out.append(v);
        return this;
    }

    Json field(String k, double v) {
        key(k);
        element();
        out.append(Double.isFinite(v) ? new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString() : "null");
        return this;
    }

    Json field(String k, boolean v) {
        key(k);
        element();
        out.append(v);
        return this;
    }

    /** Writes the comma before an element, unless it is the value right after a key. */
    private void element() {
        if (afterKey) {
            afterKey = false;
            return;
        }
        boolean[] top = stack.peek();
        if (top != null) {
            if (top[0]) out.append(',');
            top[0] = true;
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() { return out.toString(); }
}
