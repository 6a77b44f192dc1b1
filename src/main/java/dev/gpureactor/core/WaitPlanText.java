package dev.gpureactor.core;

import java.util.Optional;

/**
 * The {@link WaitPlan} grammar: a cursor parser that stops at the first fault and names it with its
 * position, and the canonical printer. Numbers are plain decimal digits without sign or leading
 * zeros, so every text that parses prints back to itself.
 */
final class WaitPlanText {
    /** Largest margin, min_sleep or max_sleep in µs (60 s): far beyond any useful sleep, and no overflow in ns. */
    static final long SLEEP_US_MAX = DeadlinePlan.SLEEP_US_MAX;
    /** Most characters of the text a fault quotes (escapes included); a longer text is cut, and its length given. */
    static final int QUOTE_MAX = 80;
    /** Most characters a fault shows of what it found at its position. */
    static final int FOUND_MAX = 24;
    /** Most digits a fault shows of a number out of range: far past any in range (a long has 19). */
    static final int DIGITS_MAX = 40;

    private final String text;
    private final String subject;
    private final int limit;
    private int pos;

    private WaitPlanText(String text, String subject, int start, int limit) {
        this.text = text;
        this.subject = subject;
        this.pos = start;
        this.limit = limit;
    }

    static WaitPlan parse(String text) {
        if (text == null) throw new NullPointerException("text");
        WaitPlanText p = new WaitPlanText(text, "wait plan", 0, text.length());
        WaitPlan plan = p.plan();
        p.end();
        return plan;
    }

    /** Parses a plan that ends at {@code end} (a band's plan inside a longer text), reporting faults against the whole text. */
    static WaitPlan parse(String whole, int start, int end, String subject) {
        WaitPlanText p = new WaitPlanText(whole, subject, start, end);
        WaitPlan plan = p.plan();
        p.end();
        return plan;
    }

    static String label(WaitPlan plan) {
        StringBuilder b = new StringBuilder();
        switch (plan) {
            case WaitPlan.Block() -> b.append("block");
            case WaitPlan.QueryPoll q -> b.append("poll");
            case WaitPlan.FlagWait f -> b.append("flag:park_us=").append(f.parkNanos() / 1000)
                    .append(",backstop_us=").append(f.backstopNanos() / 1000);
        }
        plan.predict().ifPresent(d -> b.append("+predict:margin_us=").append(d.marginNanos() / 1000)
                .append(",min_sleep_us=").append(d.minSleepNanos() / 1000)
                .append(",max_sleep_us=").append(d.maxSleepNanos() / 1000)
                .append(",window=").append(d.window()));
        return b.toString();
    }

    private WaitPlan plan() {
        if (accept("block")) {
            if (peek("+")) throw fault("\"block\" takes no \"+predict:\" (the vendor's blocking wait has nothing to sleep in front of)");
            return new WaitPlan.Block();
        }
        if (accept("poll")) {
            return new WaitPlan.QueryPoll(predict());
        }
        if (accept("flag:")) {
            long park = key("park_us", 1, WaitPlan.PARK_US_MAX);
            expect(",");
            long backstop = key("backstop_us", 1, WaitPlan.BACKSTOP_US_MAX);
            return new WaitPlan.FlagWait(park * 1000, backstop * 1000, predict());
        }
        throw fault("expected \"block\", \"poll\" or \"flag:\"");
    }

    private Optional<DeadlinePlan> predict() {
        if (pos == limit) return Optional.empty();
        expect("+predict:");
        long margin = key("margin_us", 0, SLEEP_US_MAX);
        expect(",");
        int minAt = pos;
        long min = key("min_sleep_us", 0, SLEEP_US_MAX);
        expect(",");
        int maxAt = pos;
        long max = key("max_sleep_us", 0, SLEEP_US_MAX);
        expect(",");
        long window = key("window", 1, DeadlinePlan.WINDOW_MAX);
        if (min > max) {
            pos = maxAt;
            throw fault("max_sleep_us=" + max + " is below min_sleep_us=" + min + " (at " + minAt + "); it must be >= it");
        }
        return Optional.of(new DeadlinePlan(margin * 1000, min * 1000, max * 1000, (int) window));
    }

    private long key(String name, long lo, long hi) {
        expect(name + "=");
        int start = pos;
        while (pos < limit && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') pos++;
        if (pos == start) throw fault("expected a decimal number for " + name);
        if (text.charAt(start) == '0' && pos - start > 1) {
            pos = start;
            throw fault(name + " has a leading zero; write the number plainly");
        }
        String digits = text.substring(start, pos);
        long v;
        if (digits.length() > 18) {
            v = Long.MAX_VALUE;
        } else {
            v = Long.parseLong(digits);
        }
        if (v < lo || v > hi) {
            pos = start;
            String shown = digits.length() <= DIGITS_MAX ? digits : digits.substring(0, DIGITS_MAX) + "… (" + digits.length() + " digits)";
            throw fault(name + "=" + shown + " is out of range " + lo + ".." + hi);
        }
        return v;
    }

    private boolean peek(String s) { return pos + s.length() <= limit && text.startsWith(s, pos); }

    private boolean accept(String s) {
        if (!peek(s)) return false;
        pos += s.length();
        return true;
    }

    private void expect(String s) {
        if (!accept(s)) throw fault("expected \"" + s + "\"");
    }

    private void end() {
        if (pos != limit) throw fault("expected the end of the plan");
    }

    private ReactorException fault(String what) {
        String found = pos >= limit ? (limit == text.length() ? "the end of the text" : "the end of the band")  : "\"" + excerpt() + "\"";
        return new ReactorException(ErrorCode.InvalidPlan, subject, quote(text), "at " + pos + ": " + what + ", found " + found);
    }

    private String excerpt() {
        StringBuilder b = new StringBuilder();
        if (escape(text, pos, limit, FOUND_MAX, b) < limit) b.append('…');
        return b.toString();
    }

    /**
     * {@return {@code text} as a fault quotes it: escaped, and cut after {@link #QUOTE_MAX} characters with its length
     * given} A bad plan may be any text (a whole file, a binary blob): the message stays one short, readable line.
     */
    static String quote(String text) {
        StringBuilder b = new StringBuilder();
        if (escape(text, 0, text.length(), QUOTE_MAX, b) < text.length()) b.append("… (").append(text.length()).append(" chars)");
        return b.toString();
    }

    /**
     * Appends {@code s[from, to)} escaped to {@code out}, at most {@code max} characters, and returns where it stopped: a
     * cut falls between code points, never inside a surrogate pair or an escape.
     */
    private static int escape(String s, int from, int to, int max, StringBuilder out) {
        int i = from;
        int room = max;
        while (i < to) {
            char c = s.charAt(i);
            int n = Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1)) ? 2 : 1;
            String e = n == 2 ? s.substring(i, i + 2) : escaped(c);
            if (e.length() > room) break;
            out.append(e);
            room -= e.length();
            i += n;
        }
        return i;
    }

    /**
     * One char as quoted: a control, separator, format or lone surrogate char as an escape (it could break or hide in the
     * line), and the quote and the backslash escaped so the quote reads back unambiguously.
     */
    private static String escaped(char c) {
        return switch (c) {
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            default -> switch (Character.getType(c)) {
                case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                     Character.SURROGATE -> String.format("\\u%04X", (int) c);
                default -> String.valueOf(c);
            };
        };
    }
}
