package dev.gpureactor.bench;

import dev.gpureactor.json.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A whole {@code gar bench} run: where and when it ran, what it measured, and the goals judged on it.
 *
 * @param date         ISO-8601 instant the run started
 * @param machine      CPU model, cores, kernel
 * @param jdk          runtime version and VM
 * @param load         the host's load averages at the start and the end of the run (others' work shares the cores)
 * @param knobs        reactor knobs (defaults unless set)
 * @param jitter       which strategies' waits were jittered
 * @param device       how the simulated device timed its stores
 * @param cellSeconds  measuring window per strategy and wait length
 */
public record BenchRun(String date, String machine, String jdk, String load, Knobs knobs, Jitter jitter, DeviceTiming device,
                       double cellSeconds, List<Cell> cells,
                       Optional<ManyResult> many, List<Goal> goals) {
    public BenchRun {
        cells = List.copyOf(cells);
        goals = List.copyOf(goals);
    }

    /** The table and the goals, as the terminal shows them. */
    public String table() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "gar bench  %s  |  %s  |  %s  |  knobs: %s  |  jitter: %s  |  device: %s%n", date, machine,
                jdk, knobs.describe(), jitter.name().toLowerCase(Locale.ROOT), device.name().toLowerCase(Locale.ROOT)));
        b.append(String.format(Locale.ROOT, "host load (1/5/15-min averages): %s%n", load));
        b.append(String.format(Locale.ROOT, "wake latency = waiter running again - device store; waiting CPU = every thread but the"
                + " device's, per second of the run (%.1f s per cell)%n%n", cellSeconds));
        String head = String.format(Locale.ROOT, "%-6s %-36s %7s %9s %9s %9s %9s %8s  %s%n",
                "wait", "strategy", "waits", "p50 us", "p99 us", "p99.9 us", "wait us", "cpu", "cpu by thread");
        b.append(head);
        long last = -1;
        for (Cell c : cells) {
            if (last != -1 && c.waitNanos() != last) b.append('\n');
            last = c.waitNanos();
            b.append(String.format(Locale.ROOT, "%-6s %-36s %7d %9s %9s %9s %9.0f %8.3f  %s%s%n", Goals.waitText(c.waitNanos()),
                    c.strategy().label(), c.waits(), num(c.p50Micros()), num(c.p99Micros()), num(c.p999Micros()),
                    c.meanWaitNanos() / 1e3, c.cpuCores(), topThreads(c.cpuByThreads()),
                    c.note().isEmpty() ? "" : "  [" + c.note() + "]"));
        }
        many.ifPresent(m -> b.append(String.format(Locale.ROOT,
                "%n%d waiting futures on %d lines: %.0f B heap per future beyond its virtual thread (a parked virtual thread: %.0f B);"
                        + " all woken in %.1f ms (median of " + ManyFutures.WAKES + ") = %.0f completions/s; registrations left %d%n",
                m.futures(), m.lines(), m.bytesPerFuture(), m.bytesPerVirtualThread(), m.wakeAllMillis(), m.completionsPerSecond(),
                m.registrationsLeft())));
        b.append(String.format(Locale.ROOT, "%ngoals (ratios from this run):%n"));
        for (Goal g : goals) {
            String verdict = g.pass() ? "PASS" : String.format(Locale.ROOT, "MISS (by %.1fx)", g.missFactor());
            b.append(String.format(Locale.ROOT, "  %-15s %-9s %-6s %10s %s %-8s %s  [%s]%n", verdict, g.id(), g.at(), value(g),
                    g.atMost() ? "<=" : ">=", limit(g), g.claim(), g.evidence()));
        }
        return b.toString();
    }

    private static String value(Goal g) {
        return g.unit().equals("x") ? String.format(Locale.ROOT, "%.1fx", g.value())
                : String.format(Locale.ROOT, g.unit().equals("cores") ? "%.3f %s" : "%.1f %s", g.value(), g.unit());
    }

    private static String limit(Goal g) {
        return g.unit().equals("x") ? String.format(Locale.ROOT, "%.0fx", g.limit())
                : String.format(Locale.ROOT, "%s %s", g.limit() == Math.rint(g.limit()) ? String.valueOf((long) g.limit())
                        : String.valueOf(g.limit()), g.unit());
    }

    private static String num(double micros) {
        if (micros >= 1000) return String.format(Locale.ROOT, "%.0f", micros);
        if (micros >= 10) return String.format(Locale.ROOT, "%.1f", micros);
        return String.format(Locale.ROOT, "%.2f", micros);
    }

    private static String topThreads(Map<String, Double> byThread) {
        StringBuilder b = new StringBuilder();
        byThread.entrySet().stream().filter(e -> e.getValue() >= 0.005)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(3)
                .forEach(e -> b.append(b.isEmpty() ? "" : ", ").append(e.getKey()).append(String.format(Locale.ROOT, " %.2f", e.getValue())));
        return b.toString();
    }

    /** The whole run as JSON (one object; numbers in ns, µs as named, cores, bytes). */
    public String json() {
        List<Object> jc = new ArrayList<>();
        for (Cell c : cells) {
            Map<String, Object> byThread = new LinkedHashMap<>();
            c.cpuByThreads().forEach((thread, cores) -> byThread.put(thread, Json.significant(cores)));
            jc.add(object("strategy", c.strategy().id(), "label", c.strategy().label(), "waitNanos", c.waitNanos(),
                    "waits", c.waits(), "p50Nanos", c.p50Nanos(), "p99Nanos", c.p99Nanos(),
                    "p999Nanos", c.p999Nanos(), "maxNanos", c.maxNanos(), "meanWaitNanos", Json.significant(c.meanWaitNanos()),
                    "cpuCores", Json.significant(c.cpuCores()), "note", c.note(), "cpuByThreads", byThread));
        }
        Map<String, Object> run = object("date", date, "machine", machine, "jdk", jdk, "load", load, "knobs", knobs.describe(),
                "jitter", jitter.name().toLowerCase(Locale.ROOT), "device", device.name().toLowerCase(Locale.ROOT),
                "cellSeconds", Json.significant(cellSeconds), "cells", jc);
        many.ifPresent(m -> run.put("many", object("futures", m.futures(), "lines", m.lines(),
                "bytesPerVirtualThread", Json.significant(m.bytesPerVirtualThread()), "bytesPerFuture", Json.significant(m.bytesPerFuture()),
                "wakeAllMillis", Json.significant(m.wakeAllMillis()), "completionsPerSecond", Json.significant(m.completionsPerSecond()),
                "registrationsLeft", m.registrationsLeft())));
        List<Object> jg = new ArrayList<>();
        for (Goal g : goals) {
            jg.add(object("id", g.id(), "claim", g.claim(), "at", g.at(), "value", Json.significant(g.value()),
                    "unit", g.unit(), "limit", Json.significant(g.limit()), "atMost", g.atMost(), "pass", g.pass(),
                    "evidence", g.evidence()));
        }
        run.put("goals", jg);
        return Json.write(run);
    }

    /** An object of (key, value) pairs, in order. */
    private static Map<String, Object> object(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put((String) pairs[i], pairs[i + 1]);
        return m;
    }
}
