package dev.gpureactor.bench.scale;

import dev.gpureactor.bench.Goal;
import dev.gpureactor.bench.ManyFutures;
import dev.gpureactor.bench.ManyResult;
import dev.gpureactor.json.Json;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code gar scale} run: each measure's cells and the scale goals (docs/SCALE.md) judged on them.
 *
 * @param floor  the fan-out and many-waiters shapes without the reactor, one per scheduler ({@link UnparkFloor})
 * @param pinned jdk.VirtualThreadPinned events over the run; empty when JFR was off
 */
public record ScaleRun(String date, String machine, String jdk, ScaleBench.Settings settings, List<LinesCell> lines,
                       List<IdleCell> idle, FanOut fanOut, List<ManyResult> waiters, List<Floor> floor, Optional<Pinned> pinned) {
    /** Lines the many-waiters measure spreads its futures over. */
    public static final int WAITER_LINES = 8;
    static final double CORES_PER_BUSY_LINE_MAX = 0.15, P50_RATIO_MAX = 2, THREADS_PER_LINE_MAX = 2;
    static final double IDLE_ONE_MS_PER_S_MAX = 5, IDLE_EIGHT_MS_PER_S_MAX = 20, FAN_OUT_MS_MAX = 1;
    static final double BYTES_PER_FUTURE_MAX = 1024, COMPLETIONS_PER_S_MIN = 1e6;

    /**
     * Lines with eight busy slots each, waiting {@code waitLength} over and over.
     *
     * @param waitingCpuNanos process CPU less the device threads' over the window
     * @param parkerCpuNanos  thread CPU of the gar-parker threads over the window
     * @param statsParkerCpuNanos the reactor's RunStats.parkerCpuNanos over the window (sampled, a little behind)
     * @param parkerThreads   live gar-parker threads at the window's end (parkers and threads standing by)
     * @param wakes           wakes whose store fell in the window
     * @param issued          waits launched over the whole cell; {@code completed} must equal it
     */
    public record LinesCell(int lines, Duration waitLength, long wallNanos, long waitingCpuNanos, long parkerCpuNanos,
                            long statsParkerCpuNanos, long parkerThreads, int carriers, long wakes, long p50Nanos, long p99Nanos,
                            long issued, long completed, long registrationsLeft) {
        double waitingCores() { return (double) waitingCpuNanos / wallNanos; }

        double waitingCoresPerLine() { return waitingCores() / lines; }

        double parkerCoresPerLine() { return (double) parkerCpuNanos / wallNanos / lines; }

        boolean correct() { return issued == completed && registrationsLeft == 0 && wakes > 0; }
    }

    /**
     * Lines with no pending wait, each after one completed wait (so its parker exists). {@code waitingCpuNanos}: every
     * thread's nanoseconds on a CPU where the OS tells them (Linux), less the simulated device's; else the process's
     * CPU clock (10 ms ticks here). {@code reactorCpuNanos}: the reactor's own threads' ({@code gar-*} but the device's:
     * carriers, parkers, the carrier watch, the reporter), the rest being the JVM's and the benchmark's.
     */
    public record IdleCell(int lines, long wallNanos, long waitingCpuNanos, long parkerCpuNanos, long statsParkerCpuNanos,
                           long reactorCpuNanos, long parkerThreads, long issued, long completed, long registrationsLeft) {
        double waitingMsPerSecond() { return waitingCpuNanos / 1e6 / (wallNanos / 1e9); }

        double reactorMsPerSecond() { return reactorCpuNanos / 1e6 / (wallNanos / 1e9); }

        double parkerMsPerSecond() { return parkerCpuNanos / 1e6 / (wallNanos / 1e9); }

        boolean correct() { return issued == completed && registrationsLeft == 0; }
    }

    /** One store completing {@code waiters} virtual threads: store to the last of them running, over {@code rounds}. */
    public record FanOut(int waiters, int rounds, long p50Nanos, long p99Nanos, long maxNanos, long issued, long completed,
                         long registrationsLeft) {
        boolean correct() { return issued == completed && registrationsLeft == 0; }
    }

    /**
     * The floor on one scheduler: virtual threads parked with {@code LockSupport.park}, unparked by
     * one platform thread in a loop; fan-out from the first unpark to the last running.
     */
    public record Floor(String scheduler, int carriers, int waiters, int rounds, long p50Nanos, long p99Nanos, long maxNanos,
                        List<FloorMany> many) {
        public Floor {
            many = List.copyOf(many);
        }
    }

    /** {@code waiters} plainly parked virtual threads, all unparked at once: nanos until the last ran. */
    public record FloorMany(int waiters, long wakeAllNanos) {
        double completionsPerSecond() { return waiters / (wakeAllNanos / 1e9); }
    }

    /** JFR's jdk.VirtualThreadPinned events over the run: how many, and the most frequent places (reason @ frames). */
    public record Pinned(long events, List<String> where) {
        public Pinned {
            where = List.copyOf(where);
        }
    }

    /** Every wait of every measure completed and nothing was left registered. */
    public boolean correct() {
        return lines.stream().allMatch(LinesCell::correct) && idle.stream().allMatch(IdleCell::correct) && fanOut.correct()
                && waiters.stream().allMatch(m -> m.registrationsLeft() == 0);
    }

    public List<Goal> goals() {
        List<Goal> out = new ArrayList<>();
        for (LinesCell c : lines) {
            String at = duration(c.waitLength()) + ", " + c.lines() + " lines";
            if (c.waitLength().equals(Duration.ofMillis(1))) {
                out.add(new Goal("cpu-per-busy-line", "waiting CPU per busy line (process less device threads, / lines)", at,
                        c.waitingCoresPerLine(), "cores", CORES_PER_BUSY_LINE_MAX, true,
                        String.format(Locale.ROOT, "%.3f cores over %d lines", c.waitingCores(), c.lines())));
            }
            LinesCell one = lines.stream().filter(o -> o.lines() == 1 && o.waitLength().equals(c.waitLength())).findFirst().orElse(null);
            if (one != null && c.lines() > 1 && one.p50Nanos() > 0) {
                out.add(new Goal("p50-vs-one-line", "wake p50 within 2x of the one-line figure", at, (double) c.p50Nanos() / one.p50Nanos(),
                        "x", P50_RATIO_MAX, true, micros(c.p50Nanos()) + " vs " + micros(one.p50Nanos())));
            }
            out.add(new Goal("threads-per-line", "gar-parker threads per line", at, (double) c.parkerThreads() / c.lines(), "threads",
                    THREADS_PER_LINE_MAX, true, c.parkerThreads() + " threads, " + c.lines() + " lines"));
        }
        for (IdleCell c : idle) {
            double limit = c.lines() == 1 ? IDLE_ONE_MS_PER_S_MAX : c.lines() == 8 ? IDLE_EIGHT_MS_PER_S_MAX : Double.NaN;
            if (Double.isNaN(limit)) continue;
            out.add(new Goal("idle-cpu", "waiting CPU of a reactor whose lines have nothing pending", c.lines() + " idle lines",
                    c.waitingMsPerSecond(), "ms/s", limit, true,
                    String.format(Locale.ROOT, "parkers %.2f ms/s over %.1f s", c.parkerMsPerSecond(), c.wallNanos() / 1e9)));
        }
        out.add(new Goal("fan-out-p50", "one store to the last of its waiters running, p50", fanOut.waiters() + " waiters",
                fanOut.p50Nanos() / 1e6, "ms", FAN_OUT_MS_MAX, true, fanOut.rounds() + " rounds"));
        out.add(new Goal("fan-out-p99", "one store to the last of its waiters running, p99", fanOut.waiters() + " waiters",
                fanOut.p99Nanos() / 1e6, "ms", FAN_OUT_MS_MAX, true, fanOut.rounds() + " rounds"));
        for (ManyResult m : waiters) {
            String at = m.futures() + " waiters, " + m.lines() + " lines";
            out.add(new Goal("heap-per-future", "heap per waiting future beyond its virtual thread (GC'd heap delta)", at,
                    m.bytesPerFuture(), "B", BYTES_PER_FUTURE_MAX, true, String.format(Locale.ROOT, "%.0f B per plain virtual thread",
                    m.bytesPerVirtualThread())));
            out.add(new Goal("completions-per-s", "completions per second, all woken at once", at, m.completionsPerSecond(), "/s",
                    COMPLETIONS_PER_S_MIN, false, String.format(Locale.ROOT, "%.1f ms to wake all", m.wakeAllMillis())));
        }
        pinned.ifPresent(p -> out.add(new Goal("no-pinning", "jdk.VirtualThreadPinned events over the run (JFR, threshold 0)", "whole run",
                p.events(), "events", 0, true, "JFR")));
        return out;
    }

    public String table() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "gar scale  %s  %s  %s  lines per parker: %s%n%n", date, machine, jdk,
                settings.linesPerParker() > 0 ? settings.linesPerParker() : "default"));
        b.append("Many lines (8 busy slots each; CPU in cores over the window; wake = store stamp -> waiter running; carriers: ")
                .append(lines.isEmpty() ? "-" : lines.getFirst().carriers() == 0 ? "0, the JDK's scheduler: run through ./gar"
                        : String.valueOf(lines.getFirst().carriers())).append(")\n");
        b.append(String.format(Locale.ROOT, "%6s %6s %9s %10s %10s %10s %9s %9s %8s %9s %9s%n", "wait", "lines", "waiting", "wait/line",
                "parker/ln", "stats/ln", "p50 us", "p99 us", "parkers", "wakes", "complete"));
        for (LinesCell c : lines) {
            b.append(String.format(Locale.ROOT, "%6s %6d %9.3f %10.3f %10.3f %10.3f %9.1f %9.1f %8d %9d %9s%n", duration(c.waitLength()), c.lines(),
                    c.waitingCores(), c.waitingCoresPerLine(), c.parkerCoresPerLine(), (double) c.statsParkerCpuNanos() / c.wallNanos() / c.lines(),
                    c.p50Nanos() / 1e3, c.p99Nanos() / 1e3, c.parkerThreads(), c.wakes(), c.completed() + "/" + c.issued()));
        }
        b.append("\nIdle lines (nothing pending; CPU in ms per second, from each thread's time on a CPU where the OS tells it)\n");
        b.append(String.format(Locale.ROOT, "%6s %9s %10s %10s %8s %9s%n", "lines", "waiting", "reactor's", "parkers", "threads", "window s"));
        for (IdleCell c : idle) {
            b.append(String.format(Locale.ROOT, "%6d %9.2f %10.2f %10.2f %8d %9.1f%n", c.lines(), c.waitingMsPerSecond(), c.reactorMsPerSecond(),
                    c.parkerMsPerSecond(), c.parkerThreads(), c.wallNanos() / 1e9));
        }
        b.append(String.format(Locale.ROOT, "%nFan-out: one store, %d waiters, %d rounds: last waiter running p50 %.3f ms, p99 %.3f ms, max %.3f ms%n",
                fanOut.waiters(), fanOut.rounds(), fanOut.p50Nanos() / 1e6, fanOut.p99Nanos() / 1e6, fanOut.maxNanos() / 1e6));
        b.append("\nMany waiters (over ").append(WAITER_LINES).append(" lines; heap by GC'd heap delta against plainly parked virtual threads)\n");
        for (ManyResult m : waiters) {
            b.append(String.format(Locale.ROOT, "%8d waiters: %.0f B per future, %.0f B per virtual thread, all woken in %.1f ms (median of " + ManyFutures.WAKES + ") = %.3f M/s%n",
                    m.futures(), m.bytesPerFuture(), m.bytesPerVirtualThread(), m.wakeAllMillis(), m.completionsPerSecond() / 1e6));
        }
        b.append("\nFloor (no reactor: virtual threads in LockSupport.park, unparked by one platform thread in a loop)\n");
        for (Floor fl : floor) {
            b.append(String.format(Locale.ROOT, "  %-13s %d carriers  fan-out %d: last running p50 %.3f ms, p99 %.3f ms, max %.3f ms%n",
                    fl.scheduler(), fl.carriers(), fl.waiters(), fl.p50Nanos() / 1e6, fl.p99Nanos() / 1e6, fl.maxNanos() / 1e6));
            for (FloorMany m : fl.many()) {
                b.append(String.format(Locale.ROOT, "  %-13s %d carriers  %8d waiters: all woken in %.1f ms (median of " + ManyFutures.WAKES + ") = %.3f M/s%n", fl.scheduler(),
                        fl.carriers(), m.waiters(), m.wakeAllNanos() / 1e6, m.completionsPerSecond() / 1e6));
            }
        }
        b.append("\nPinning: ").append(pinned.isPresent() ? pinned.get().events() + " jdk.VirtualThreadPinned events" : "not recorded (--no-jfr)");
        pinned.ifPresent(p -> p.where().forEach(w -> b.append("\n  ").append(w)));
        b.append("\n\nGoals of issue 19\n");
        for (Goal g : goals()) {
            b.append(String.format(Locale.ROOT, "  %-4s %-18s %-20s %12.4g %-6s (goal %s %.4g)%s  %s%n", g.pass() ? "PASS" : "MISS", g.id(), g.at(),
                    g.value(), g.unit(), g.atMost() ? "<=" : ">=", g.limit(),
                    g.pass() ? "" : String.format(Locale.ROOT, " missed by %.2fx", g.missFactor()), g.evidence()));
        }
        b.append("\nCorrectness: ").append(correct() ? "PASS (every wait completed, nothing left registered)" : "FAIL").append('\n');
        return b.toString();
    }

    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("date", date);
        m.put("machine", machine);
        m.put("linesPerParker", settings.linesPerParker());
        m.put("jdk", jdk);
        m.put("correct", correct());
        List<Object> ls = new ArrayList<>();
        for (LinesCell c : lines) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("lines", c.lines());
            o.put("wait_us", c.waitLength().toNanos() / 1e3);
            o.put("window_s", c.wallNanos() / 1e9);
            o.put("waiting_cores", Json.significant(c.waitingCores()));
            o.put("waiting_cores_per_line", Json.significant(c.waitingCoresPerLine()));
            o.put("parker_cores_per_line", Json.significant(c.parkerCoresPerLine()));
            o.put("stats_parker_cores_per_line", Json.significant((double) c.statsParkerCpuNanos() / c.wallNanos() / c.lines()));
            o.put("wake_p50_us", c.p50Nanos() / 1e3);
            o.put("wake_p99_us", c.p99Nanos() / 1e3);
            o.put("parker_threads", c.parkerThreads());
            o.put("carriers", c.carriers());
            o.put("wakes", c.wakes());
            o.put("issued", c.issued());
            o.put("completed", c.completed());
            o.put("registrations_left", c.registrationsLeft());
            ls.add(o);
        }
        m.put("many_lines", ls);
        List<Object> is = new ArrayList<>();
        for (IdleCell c : idle) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("lines", c.lines());
            o.put("window_s", c.wallNanos() / 1e9);
            o.put("waiting_cpu_ms_per_s", Json.significant(c.waitingMsPerSecond()));
            o.put("reactor_threads_cpu_ms_per_s", Json.significant(c.reactorMsPerSecond()));
            o.put("parker_cpu_ms_per_s", Json.significant(c.parkerMsPerSecond()));
            o.put("parker_threads", c.parkerThreads());
            o.put("issued", c.issued());
            o.put("completed", c.completed());
            is.add(o);
        }
        m.put("idle_lines", is);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("waiters", fanOut.waiters());
        f.put("rounds", fanOut.rounds());
        f.put("last_running_p50_ms", fanOut.p50Nanos() / 1e6);
        f.put("last_running_p99_ms", fanOut.p99Nanos() / 1e6);
        f.put("issued", fanOut.issued());
        f.put("completed", fanOut.completed());
        m.put("fan_out", f);
        List<Object> ws = new ArrayList<>();
        for (ManyResult r : waiters) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("waiters", r.futures());
            o.put("lines", r.lines());
            o.put("bytes_per_future", r.bytesPerFuture());
            o.put("bytes_per_virtual_thread", r.bytesPerVirtualThread());
            o.put("wake_all_ms", r.wakeAllMillis());
            o.put("completions_per_s", Json.significant(r.completionsPerSecond()));
            o.put("registrations_left", r.registrationsLeft());
            ws.add(o);
        }
        m.put("many_waiters", ws);
        List<Object> fls = new ArrayList<>();
        for (Floor fl : floor) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("scheduler", fl.scheduler());
            o.put("carriers", fl.carriers());
            o.put("fan_out_waiters", fl.waiters());
            o.put("fan_out_rounds", fl.rounds());
            o.put("fan_out_p50_ms", fl.p50Nanos() / 1e6);
            o.put("fan_out_p99_ms", fl.p99Nanos() / 1e6);
            List<Object> ms = new ArrayList<>();
            for (FloorMany fm : fl.many()) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("waiters", fm.waiters());
                x.put("wake_all_ms", fm.wakeAllNanos() / 1e6);
                x.put("completions_per_s", Json.significant(fm.completionsPerSecond()));
                ms.add(x);
            }
            o.put("many_waiters", ms);
            fls.add(o);
        }
        m.put("floor", fls);
        m.put("pinned_events", pinned.map(Pinned::events).orElse(null));
        m.put("pinned_where", pinned.map(Pinned::where).orElse(List.of()));
        List<Object> gs = new ArrayList<>();
        for (Goal g : goals()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("id", g.id());
            o.put("at", g.at());
            o.put("value", Json.significant(g.value()));
            o.put("unit", g.unit());
            o.put("limit", Json.significant(g.limit()));
            o.put("at_most", g.atMost());
            o.put("pass", g.pass());
            o.put("miss_factor", Json.significant(g.missFactor()));
            o.put("evidence", g.evidence());
            gs.add(o);
        }
        m.put("goals", gs);
        return m;
    }

    static String duration(Duration d) {
        long n = d.toNanos();
        if (n % 1_000_000 == 0) return n / 1_000_000 + "ms";
        if (n % 1_000 == 0) return n / 1_000 + "us";
        return n + "ns";
    }

    private static String micros(long nanos) { return String.format(Locale.ROOT, "%.1f us", nanos / 1e3); }
}
