package dev.gpureactor.bench.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The service run as a hand-written SVG: two panels against the client count (log scale),
 * requests per second (left) and store → handler-running p99 (right, log scale), one line per mode,
 * the watcher baseline dashed. Plain, well-formed XML; no scripts, no external references.
 */
public final class ServicePlot {
    private static final int W = 1100, H = 560, TOP = 96, PH = 380, PW = 400, LEFT1 = 80, LEFT2 = 580;
    private static final String[] COLOURS = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f"};

    private ServicePlot() {}

    public static String render(ServiceRun run) {
        List<ServiceRun.Summary> sums = run.summaries();
        List<Integer> levels = run.settings().levels().stream().sorted().toList();
        List<String> modes = run.settings().modes().stream().map(Mode::label).toList();
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append(f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n", W, H, W, H));
        s.append(f("<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", W, H));
        s.append(f("<text x=\"%d\" y=\"26\" font-size=\"17\" font-weight=\"bold\">gar service: throughput and wake tail against clients, per mode</text>%n", LEFT1));
        s.append(f("<text x=\"%d\" y=\"46\" fill=\"#444\" font-size=\"11\">%s</text>%n", LEFT1,
                esc("gar service " + run.date() + "  |  " + run.machine() + "  |  host load " + run.load() + "  |  medians of "
                        + run.settings().rounds() + " round(s)")));
        panel(s, LEFT1, "requests/s", false, levels, modes, sums, ServiceRun.Summary::rps);
        panel(s, LEFT2, "store \u2192 handler running, p99", true, levels, modes, sums, ServiceRun.Summary::wakeP99);
        int lx = LEFT1, ly = H - 22;
        for (int i = 0; i < modes.size(); i++) {
            String m = modes.get(i);
            s.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2.5\"%s/>%n", lx, ly - 4, lx + 24, ly - 4,
                    colour(i), dash(m)));
            s.append(f("<text x=\"%d\" y=\"%d\">%s</text>%n", lx + 30, ly, esc(m)));
            lx += 40 + 7 * m.length();
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static void panel(StringBuilder s, int left, String title, boolean logY, List<Integer> levels, List<String> modes,
                              List<ServiceRun.Summary> sums, ToDoubleFunction<ServiceRun.Summary> value) {
        double max = sums.stream().mapToDouble(value).filter(Double::isFinite).max().orElse(1);
        double min = sums.stream().mapToDouble(value).filter(v -> Double.isFinite(v) && v > 0).min().orElse(1);
        double yLo = logY ? Math.floor(Math.log10(min)) : 0;
        double yHi = logY ? Math.ceil(Math.log10(Math.max(max, min * 10))) : niceCeil(max * 1.05);
        double xLo = Math.log10(levels.getFirst()), xHi = Math.log10(Math.max(levels.getLast(), levels.getFirst() * 2));
        xLo -= 0.1;
        xHi += 0.1;
        s.append(f("<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">%s%s</text>%n", left, TOP - 14, esc(title),
                logY ? " (log scale)" : ""));
        s.append(f("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333333\"/>%n", left, TOP, PW, PH));
        int ticks = logY ? (int) (yHi - yLo) : 5;
        for (int i = 0; i <= ticks; i++) {
            double v = logY ? Math.pow(10, yLo + i) : yHi * i / ticks;
            double py = y(v, logY, yLo, yHi);
            s.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>%n", left, py, left + PW, py));
            s.append(f("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left - 6, py + 4, esc(logY ? micros(v) : f("%.0f", v))));
        }
        for (int n : levels) {
            double px = left + (Math.log10(n) - xLo) / (xHi - xLo) * PW;
            s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eeeeee\"/>%n", px, TOP, px, TOP + PH));
            s.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n", px, TOP + PH + 18, n));
        }
        s.append(f("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">clients (log scale)</text>%n", left + PW / 2, TOP + PH + 38));
        for (int i = 0; i < modes.size(); i++) {
            String m = modes.get(i);
            List<String> pts = new ArrayList<>();
            for (ServiceRun.Summary su : sums) {
                double v = value.applyAsDouble(su);
                if (!su.mode().equals(m) || !Double.isFinite(v) || (logY && v <= 0)) continue;
                double px = left + (Math.log10(su.clients()) - xLo) / (xHi - xLo) * PW;
                pts.add(f("%.1f,%.1f", px, y(v, logY, yLo, yHi)));
                s.append(f("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>%s</title></circle>%n", px, y(v, logY, yLo, yHi),
                        colour(i), esc(f("%s, %d clients: %s", m, su.clients(), logY ? micros(v) : f("%.0f rps", v)))));
            }
            if (pts.size() > 1) {
                s.append(f("<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>%n", String.join(" ", pts), colour(i), dash(m)));
            }
        }
    }

    private static double y(double v, boolean logY, double lo, double hi) {
        double t = logY ? (Math.log10(Math.max(v, Math.pow(10, lo))) - lo) / (hi - lo) : v / hi;
        return TOP + PH - t * PH;
    }

    private static double niceCeil(double v) {
        if (v <= 0) return 1;
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) if (m * p >= v) return m * p;
        return 10 * p;
    }

    private static String dash(String mode) { return mode.equals(Mode.WATCHER.label()) ? " stroke-dasharray=\"6,4\"" : ""; }

    private static String colour(int i) { return COLOURS[i % COLOURS.length]; }

    private static String micros(double us) {
        if (us >= 1000) return f("%.0f ms", us / 1000);
        if (us >= 1) return f("%.0f \u00b5s", us);
        return f("%.0f ns", us * 1000);
    }

    private static String f(String format, Object... args) { return String.format(Locale.ROOT, format, args); }

    /** XML text escaping: the five predefined entities (shared with {@code gar bench}'s plot). */
    public static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
