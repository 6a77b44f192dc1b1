package dev.gpureactor.bench.service;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The service run's frontier as a hand-written SVG: server CPU per request (x) against store →
 * handler-running latency (y, log scale), p50 in the left panel and p99 in the right, one point
 * per mode and client level. Colour and number name the mode, shape the client level (the markers
 * of {@code gar bench}'s plot); the judged mode (the library's defaults) is drawn larger with a black
 * outline, and the 100 µs watcher's points are ringed with a dashed circle, so that a reader sees
 * where the defaults sit against the watchers and what each setting buys. Down and to the left is
 * better. Plain, well-formed XML; no scripts, no external references. Each point is a
 * {@code <g class="point">} with a {@code <title>} that gives its numbers.
 */
public final class ServicePlot {
    private static final int W = 1250, H = 640, TOP = 110, PH = 420, PW = 400, LEFT1 = 80, LEFT2 = 560, LEGEND = 1000;
    private static final String[] COLOURS = {"#d62728", "#ff7f0e", "#bcbd22", "#9467bd", "#1f77b4", "#17becf", "#2ca02c", "#8c564b",
        "#7f7f7f", "#e377c2"};

    private ServicePlot() {}

    /** The frontier plot of {@code run}'s summaries (medians over its rounds). */
    public static String render(ServiceRun run) {
        List<ServiceRun.Summary> sums = run.summaries().stream().filter(s -> Double.isFinite(s.cpuUsPerReq())).toList();
        List<Integer> levels = run.settings().levels().stream().sorted().toList();
        List<String> modes = run.settings().modes().stream().map(Mode::label).toList();
        String judged = run.judgedMode().orElse(""), baseline = run.baselineMode().orElse("");
        boolean serverCpu = sums.stream().noneMatch(s -> Double.isNaN(s.serverCpuUsPerReq()));
        double[] x = xRange(sums);
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append(f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n", W, H, W, H));
        s.append(f("<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", W, H));
        s.append(f("<text x=\"%d\" y=\"26\" font-size=\"17\" font-weight=\"bold\">gar service: the frontier, wake latency against server CPU"
                + " per request, per mode and client level</text>%n", LEFT1));
        String[] sub = {
            "gar service " + run.date() + "  |  " + run.machine() + "  |  host load " + run.load(),
            "medians of " + run.settings().rounds() + " round(s)  |  fates " + (run.settings().fates() ? "on (1 request in " + Fate.EVERY
                    + " timed out, cancelled or interrupted)" : "off") + "  |  down and to the left is better",
        };
        for (int i = 0; i < sub.length; i++) {
            s.append(f("<text x=\"%d\" y=\"%d\" fill=\"#444\" font-size=\"11\">%s</text>%n", LEFT1, 46 + 15 * i, esc(sub[i])));
        }
        String xTitle = (serverCpu ? "server" : "process") + " CPU per request (\u00b5s)";
        panel(s, LEFT1, "store \u2192 handler running, p50", xTitle, x, yRange(sums, ServiceRun.Summary::wakeP50), sums, modes, levels, judged,
                baseline, ServiceRun.Summary::wakeP50);
        panel(s, LEFT2, "store \u2192 handler running, p99", xTitle, x, yRange(sums, ServiceRun.Summary::wakeP99), sums, modes, levels, judged,
                baseline, ServiceRun.Summary::wakeP99);
        legend(s, modes, levels, judged, baseline);
        s.append("</svg>\n");
        return s.toString();
    }

    /** Both panels share one x range (linear, nice ends), so that a mode's points stand at the same x in both. */
    private static double[] xRange(List<ServiceRun.Summary> sums) {
        double lo = sums.stream().mapToDouble(ServiceRun.Summary::cpuUsPerReq).min().orElse(0);
        double hi = sums.stream().mapToDouble(ServiceRun.Summary::cpuUsPerReq).max().orElse(1);
        double pad = Math.max((hi - lo) * 0.08, Math.max(hi, 1) * 0.02);
        double step = niceStep((hi - lo + 2 * pad) / 5);
        double a = Math.max(0, Math.floor((lo - pad) / step) * step), b = Math.ceil((hi + pad) / step) * step;
        return new double[] {a, b <= a ? a + step : b, step};
    }

    /**
     * A panel's y range in log10 of µs: its own values' span widened by a tenth each way to the next
     * 1, 2 or 5 times a power of ten, at least one decade (p50s span little, p99s a lot).
     */
    private static double[] yRange(List<ServiceRun.Summary> sums, ToDoubleFunction<ServiceRun.Summary> value) {
        double lo = sums.stream().mapToDouble(value).filter(v -> Double.isFinite(v) && v > 0).min().orElse(10);
        double hi = sums.stream().mapToDouble(value).filter(v -> Double.isFinite(v) && v > 0).max().orElse(1000);
        double a = nice(lo / 1.1, false), b = nice(Math.max(hi * 1.1, a * 10), true);
        return new double[] {Math.log10(a), Math.log10(b)};
    }

    /** The nearest 1, 2 or 5 times a power of ten below ({@code up} false) or above {@code v}. */
    private static double nice(double v, boolean up) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        double[] ms = {1, 2, 5, 10};
        if (up) {
            for (double m : ms) if (m * p >= v * (1 - 1e-9)) return m * p;
            return 10 * p;
        }
        for (int i = ms.length - 1; i >= 0; i--) if (ms[i] * p <= v * (1 + 1e-9)) return ms[i] * p;
        return p;
    }

    private static void panel(StringBuilder s, int left, String title, String xTitle, double[] x, double[] y, List<ServiceRun.Summary> sums,
                              List<String> modes, List<Integer> levels, String judged, String baseline,
                              ToDoubleFunction<ServiceRun.Summary> value) {
        s.append(f("<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">%s (log scale)</text>%n", left, TOP - 14, esc(title)));
        s.append("<g stroke=\"#eeeeee\" stroke-width=\"1\">\n");
        for (int d = (int) Math.floor(y[0] + 1e-9); d <= (int) Math.ceil(y[1]); d++) {
            for (int m = 1; m < 10; m++) {
                double v = m * Math.pow(10, d), lv = Math.log10(v);
                if (lv < y[0] - 1e-9 || lv > y[1] + 1e-9) continue;
                double py = py(v, y);
                s.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"%s/>%n", left, py, left + PW, py, m == 1 ? " stroke=\"#c4c4c4\"" : ""));
            }
        }
        for (double v = x[0]; v <= x[1] + x[2] / 2; v += x[2]) {
            double px = px(left, v, x);
            s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>%n", px, TOP, px, TOP + PH));
        }
        s.append("</g>\n");
        s.append(f("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333333\"/>%n", left, TOP, PW, PH));
        for (int d = (int) Math.floor(y[0] + 1e-9); d <= (int) Math.ceil(y[1]); d++) {
            for (int m : new int[] {1, 2, 5}) {
                double v = m * Math.pow(10, d), lv = Math.log10(v);
                if (lv < y[0] - 1e-9 || lv > y[1] + 1e-9) continue;
                s.append(f("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left - 6, py(v, y) + 4, esc(latencyText(v))));
            }
        }
        for (double v = x[0]; v <= x[1] + x[2] / 2; v += x[2]) {
            s.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", px(left, v, x), TOP + PH + 18, number(v, x[2])));
        }
        s.append(f("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">%s</text>%n", left + PW / 2, TOP + PH + 40, esc(xTitle)));
        for (ServiceRun.Summary su : sums) {
            double v = value.applyAsDouble(su);
            int mi = modes.indexOf(su.mode()), li = levels.indexOf(su.clients());
            if (!Double.isFinite(v) || v <= 0 || mi < 0 || li < 0) continue;
            double px = px(left, su.cpuUsPerReq(), x), py = py(v, y);
            s.append(f("<g class=\"point\"><title>%s</title>%n", esc(f("%s, %d clients: %.1f us CPU per request, wake p50 %.0f us, p99 %.0f us,"
                    + " %.0f requests/s", su.mode(), su.clients(), su.cpuUsPerReq(), su.wakeP50(), su.wakeP99(), su.rps()))));
            if (su.mode().equals(baseline)) {
                s.append(f("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"11\" fill=\"none\" stroke=\"#333333\" stroke-dasharray=\"3,2\"/>%n", px, py));
            }
            s.append(marker(li, px, py, colour(mi), su.mode().equals(judged) ? 1.35 : 1.0));
            s.append(f("<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">%d</text>%n", px + 8, py - 6, colour(mi), mi + 1));
            s.append("</g>\n");
        }
    }

    private static void legend(StringBuilder s, List<String> modes, List<Integer> levels, String judged, String baseline) {
        int ly = TOP + 4;
        s.append(f("<text x=\"%d\" y=\"%d\" font-weight=\"bold\">mode (colour, number)</text>%n", LEGEND, ly));
        ly += 6;
        for (int i = 0; i < modes.size(); i++) {
            String m = modes.get(i);
            ly += 20;
            s.append(f("<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"%s/>%n", LEGEND, ly - 11, colour(i),
                    m.equals(judged) ? " stroke=\"#000000\" stroke-width=\"1.5\"" : ""));
            String note = m.equals(judged) ? " (defaults)" : m.equals(baseline) ? " (baseline)" : "";
            s.append(f("<text x=\"%d\" y=\"%d\"%s>%d %s%s</text>%n", LEGEND + 20, ly, m.equals(judged) ? " font-weight=\"bold\"" : "", i + 1,
                    esc(m), esc(note)));
        }
        ly += 34;
        s.append(f("<text x=\"%d\" y=\"%d\" font-weight=\"bold\">clients (shape)</text>%n", LEGEND, ly));
        ly += 6;
        for (int i = 0; i < levels.size(); i++) {
            ly += 22;
            s.append(marker(i, LEGEND + 7, ly - 4, "#555555", 1.0));
            s.append(f("<text x=\"%d\" y=\"%d\">%d</text>%n", LEGEND + 20, ly, levels.get(i)));
        }
        if (!baseline.isEmpty()) {
            ly += 30;
            s.append(f("<circle cx=\"%d\" cy=\"%d\" r=\"9\" fill=\"none\" stroke=\"#333333\" stroke-dasharray=\"3,2\"/>%n", LEGEND + 7, ly - 4));
            s.append(f("<text x=\"%d\" y=\"%d\">the ratios' baseline</text>%n", LEGEND + 20, ly));
        }
    }

    private static double px(int left, double v, double[] x) { return left + (v - x[0]) / (x[1] - x[0]) * PW; }

    private static double py(double v, double[] y) {
        double t = (Math.log10(Math.max(v, Math.pow(10, y[0]))) - y[0]) / (y[1] - y[0]);
        return TOP + PH - t * PH;
    }

    private static double niceStep(double raw) {
        if (!(raw > 0)) return 1;
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) if (m * p >= raw) return m * p;
        return 10 * p;
    }

    private static String number(double v, double step) { return step == Math.rint(step) ? f("%.0f", v) : f("%.1f", v); }

    /**
     * A marker at ({@code px}, {@code py}): circle, square, triangle, diamond, then circles again, by
     * {@code rank}; {@code scale} above 1 draws it larger with a black outline (the highlighted series).
     * Shared with {@code gar bench}'s plot.
     */
    public static String marker(int rank, double px, double py, String colour, double scale) {
        String stroke = scale > 1 ? "#000000" : "#ffffff";
        double r = 6 * scale;
        return switch (rank % 4) {
            case 0 -> f("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"%s\"/>%n", px, py, r, colour, stroke);
            case 1 -> f("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"%s\"/>%n",
                    px - r, py - r, 2 * r, 2 * r, colour, stroke);
            case 2 -> f("<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\" stroke=\"%s\"/>%n",
                    px, py - 1.25 * r, px - 1.15 * r, py + 0.85 * r, px + 1.15 * r, py + 0.85 * r, colour, stroke);
            default -> f("<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\" stroke=\"%s\"/>%n",
                    px, py - 1.3 * r, px + 1.3 * r, py, px, py + 1.3 * r, px - 1.3 * r, py, colour, stroke);
        };
    }

    /** A latency in µs as an axis label: {@code 50 µs}, {@code 2 ms}, {@code 500 ns}. */
    public static String latencyText(double micros) {
        if (micros >= 1000) return plainNumber(micros / 1000) + " ms";
        if (micros >= 1) return plainNumber(micros) + " \u00b5s";
        return plainNumber(micros * 1000) + " ns";
    }

    private static String plainNumber(double v) {
        return v >= 1 ? String.valueOf((long) v) : String.valueOf(v).replaceFirst("0+$", "");
    }

    private static String colour(int i) { return COLOURS[i % COLOURS.length]; }

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
