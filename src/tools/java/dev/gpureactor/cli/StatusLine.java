package dev.gpureactor.cli;

import java.io.Console;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * A command's progress on stderr: on a terminal one line redrawn in place, elsewhere (a log, a pipe)
 * plain lines, so that the log stays readable; nothing at all when quiet. Each command words its
 * progress; this draws it.
 */
final class StatusLine {
    private final PrintWriter out;
    private final boolean quiet;
    private final boolean terminal;
    private final long t0 = System.nanoTime();
    private int lastLength;

    StatusLine(PrintWriter out, boolean quiet) {
        this.out = out;
        this.quiet = quiet;
        Console c = System.console();
        this.terminal = c != null && c.isTerminal();
    }

    boolean quiet() { return quiet; }

    /** Whether the line is redrawn in place. */
    boolean terminal() { return terminal; }

    /** Seconds since the line was made. */
    double seconds() {
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Redraws the line in place as {@code text}; {@code keep} ends it there, so that the next one starts below. */
    synchronized void redraw(String text, boolean keep) {
        out.print("\r" + text + " ".repeat(Math.max(0, lastLength - text.length())));
        if (keep) {
            out.println();
            lastLength = 0;
        } else {
            lastLength = text.length();
        }
        out.flush();
    }

    /** One plain line. */
    synchronized void println(String text) {
        out.println(text);
        out.flush();
    }

    /** {@link #println} with {@link String#format} in the root locale. */
    void printf(String format, Object... args) {
        println(String.format(Locale.ROOT, format, args));
    }

    /** Clears a line left in place on a terminal. */
    synchronized void finish() {
        if (quiet || !terminal) return;
        out.print("\r" + " ".repeat(lastLength) + "\r");
        out.flush();
    }
}
