package dev.gpureactor.bench;

import dev.gpureactor.bench.service.ServicePlot;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * The bench run as a hand-written SVG: wake latency (log scale) against waiting CPU (log scale),
 * one point per strategy and wait length at its p50 with a whisker up to its p99; colour names the
 * strategy, shape the wait length; the goal region (at most 0.15 cores, p50 at most 50 µs) is
 * shaded. No scripts, no external references: the file is plain, well-formed XML.
 */
public final class SvgPlot {
    private static final int W = 1000, H = 666;
    private static final int LEFT = 86, TOP = 100, PW = 580, PH = 470;
    private static final double CPU_MIN = 1e-3;
    private static final String[] COLOURS = {
        "#d62728", "#ff7f0e", "#bcbd22", "#9467bd", "#1f77b4", "#17becf", "#2ca02c", "#8c564b", "#7f7f7f", "#e377c2"
    };

    private final double xLo, xHi, yLo, yHi;

    private SvgPlot(double xLo, double xHi, double yLo, double yHi) {
        this.xLo = xLo;
        this.xHi = xHi;
        this.yLo = yLo;
        this.yHi = yHi;
    }

    /** The plot of {@code run}'s cells. */
    public static String render(BenchRun run) {
        List<Cell> cells = run.cells().stream().filter(c -> c.waits() > 0).toList();
        double maxCpu = cells.stream().mapToDouble(Cell::cpuCores).max().orElse(1);
        double minLat = cells.stream().mapToDouble(c -> Math.max(0.01, c.p50Micros())).min().orElse(1);
        double maxLat = cells.stream().mapToDouble(c -> Math.max(c.p99Micros(), c.p50Micros())).max().orElse(1000);
        double xHi = Math.pow(10, Math.ceil(Math.log10(Math.max(2, maxCpu * 1.05))));
        double yLo = Math.pow(10, Math.floor(Math.log10(Math.min(minLat, 1))));
        double yHi = Math.pow(10, Math.ceil(Math.log10(Math.max(maxLat, Goals.P50_MICROS_MAX * 10))));
        return new SvgPlot(Math.log10(CPU_MIN), Math.log10(xHi), Math.log10(yLo), Math.log10(yHi)).draw(run, cells);
    }

    private double x(double cores) {
        double v = Math.log10(Math.max(CPU_MIN, cores));
        return LEFT + (v - xLo) / (xHi - xLo) * PW;
    }

    private double y(double micros) {
        double v = Math.log10(Math.max(Math.pow(10, yLo), micros));
        return TOP + PH - (v - yLo) / (yHi - yLo) * PH;
    }

    private String draw(BenchRun run, List<Cell> cells) {
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append(f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n", W, H, W, H));
        s.append(f("<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", W, H));
        s.append(f("<text x=\"%d\" y=\"26\" font-size=\"17\" font-weight=\"bold\">Wake latency vs waiting CPU, per strategy and wait length</text>%n", LEFT));
        String[] sub = {
            "gar bench " + run.date() + "  |  " + run.machine() + "  |  " + run.jdk(),
            "knobs: " + run.knobs().describe() + "  |  jitter: " + run.jitter().name().toLowerCase(Locale.ROOT) + "  |  device: "
                    + run.device().name().toLowerCase(Locale.ROOT) + "  |  host load " + run.load(),
            "marker: p50 wake latency (store to waiter running); whisker: up to p99; CPU below 0.001 cores drawn at 0.001",
        };
        for (int i = 0; i < sub.length; i++) {
            s.append(f("<text x=\"%d\" y=\"%d\" fill=\"#444\" font-size=\"11\">%s</text>%n", LEFT, 44 + 15 * i, esc(sub[i])));
        }

        // goal region
        double gx = x(Goals.CPU_CORES_MAX), gy = y(Goals.P50_MICROS_MAX);
        s.append(f("<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#e3f4e6\" stroke=\"#2ca02c\" stroke-dasharray=\"5,3\"/>%n",
                LEFT, gy, gx - LEFT, TOP + PH - gy));
        s.append(f("<text x=\"%d\" y=\"%.1f\" fill=\"#1d6b2a\" font-size=\"11\">goal: &#8804; 0.15 cores, p50 &#8804; 50 &#181;s</text>%n",
                LEFT + 6, gy + 14));

        // grid and axes
        s.append("<g stroke=\"#eeeeee\" stroke-width=\"1\">\n");
        for (int d = (int) Math.round(xLo); d <= (int) Math.round(xHi); d++) {
            for (int m = 1; m < 10; m++) {
                double v = m * Math.pow(10, d);
                if (Math.log10(v) > xHi + 1e-9) break;
                double px = x(v);
                s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"%s/>%n", px, TOP, px, TOP + PH, m == 1 ? " stroke=\"#c4c4c4\"" : ""));
            }
        }
        for (int d = (int) Math.round(yLo); d <= (int) Math.round(yHi); d++) {
            for (int m = 1; m < 10; m++) {
                double v = m * Math.pow(10, d);
                if (Math.log10(v) > yHi + 1e-9) break;
                double py = y(v);
                s.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"%s/>%n", LEFT, py, LEFT + PW, py, m == 1 ? " stroke=\"#c4c4c4\"" : ""));
            }
        }
        s.append("</g>\n");
        s.append(f("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333333\"/>%n", LEFT, TOP, PW, PH));
        for (int d = (int) Math.round(xLo); d <= (int) Math.round(xHi); d++) {
            double v = Math.pow(10, d);
            s.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x(v), TOP + PH + 18, esc(plain(v))));
        }
        for (int d = (int) Math.round(yLo); d <= (int) Math.round(yHi); d++) {
            double v = Math.pow(10, d);
            s.append(f("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 8, y(v) + 4, esc(ServicePlot.latencyText(v))));
        }
        s.append(f("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">waiting CPU (cores per waiting line, log scale)</text>%n",
                LEFT + PW / 2, TOP + PH + 42));
        s.append(f("<text x=\"20\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 20 %d)\">"
                + "wake latency p50 (whisker to p99), log scale</text>%n", TOP + PH / 2, TOP + PH / 2));

        // points
        List<Strategy> strategies = new ArrayList<>(new LinkedHashSet<>(cells.stream().map(Cell::strategy).toList()));
        List<Long> waits = cells.stream().map(Cell::waitNanos).distinct().sorted().toList();
        for (Cell c : cells) {
            String colour = colour(c.strategy());
            double px = x(c.cpuCores()), p50 = y(c.p50Micros()), p99 = y(c.p99Micros());
            s.append(f("<g><title>%s</title>%n", esc(String.format(Locale.ROOT, "%s, wait %s: p50 %.1f us, p99 %.1f us, %.3f cores",
                    c.strategy().label(), Goals.waitText(c.waitNanos()), c.p50Micros(), c.p99Micros(), c.cpuCores()))));
            s.append(f("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" opacity=\"0.6\"/>%n",
                    px, p50, px, p99, colour));
            s.append(f("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" opacity=\"0.6\"/>%n",
                    px - 4, p99, px + 4, p99, colour));
            s.append(ServicePlot.marker(waits.indexOf(c.waitNanos()), px, p50, colour, c.strategy() == Strategy.REACTOR ? 1.35 : 1.0));
            s.append("</g>\n");
        }

        // legend
        int lx = LEFT + PW + 24, ly = TOP + 4;
        s.append(f("<text x=\"%d\" y=\"%d\" font-weight=\"bold\">strategy (colour)</text>%n", lx, ly));
        ly += 8;
        for (Strategy st : strategies) {
            ly += 20;
            s.append(f("<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"%s/>%n", lx, ly - 11, colour(st),
                    st == Strategy.REACTOR ? " stroke=\"#000000\" stroke-width=\"1.5\"" : ""));
            s.append(f("<text x=\"%d\" y=\"%d\"%s>%s</text>%n", lx + 22, ly, st == Strategy.REACTOR ? " font-weight=\"bold\"" : "",
                    esc(st.label())));
        }
        ly += 34;
        s.append(f("<text x=\"%d\" y=\"%d\" font-weight=\"bold\">wait length (shape)</text>%n", lx, ly));
        ly += 8;
        for (int i = 0; i < waits.size(); i++) {
            ly += 22;
            s.append(ServicePlot.marker(i, lx + 7, ly - 4, "#555555", 1.0));
            s.append(f("<text x=\"%d\" y=\"%d\">%s</text>%n", lx + 22, ly, esc(Goals.waitText(waits.get(i)))));
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static String colour(Strategy s) { return COLOURS[s.ordinal() % COLOURS.length]; }

    private static String plain(double v) {
        return v >= 1 ? String.valueOf((long) v) : String.valueOf(v).replaceFirst("0+$", "");
    }

    private static String f(String format, Object... args) { return String.format(Locale.ROOT, format, args); }

    /** XML text escaping: the five predefined entities. */
    static String esc(String s) {
        return ServicePlot.esc(s);
    }
}
