package dev.gpureactor.bench.service;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * A finished run: its cells, their medians over the rounds per mode and level, the ratios against
 * the watcher baseline, and the service goals (docs/SERVICE.md) judged on those ratios.
 */
public final class ServiceRun {
    private final ServiceBench.Settings settings;
    private final List<Cell> cells;
    private final List<String> notes;
    private final String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    private final String machine;
    private final String jdk;
    private final String load;

    ServiceRun(ServiceBench.Settings settings, List<Cell> cells, List<String> notes, String machine, String jdk, String load) {
        this.settings = settings;
        this.cells = List.copyOf(cells);
        this.notes = List.copyOf(notes);
        this.machine = machine;
        this.jdk = jdk;
        this.load = load;
    }

    public List<Cell> cells() { return cells; }

    public List<String> notes() { return notes; }

    public ServiceBench.Settings settings() { return settings; }

    /** One mode at one level, over its rounds: medians of the measures, sums of the correctness counts. */
    public record Summary(String mode, int clients, int rounds, double rps, double clientP50, double clientP99, double clientP999,
                          double wakeP50, double wakeP90, double wakeP99, double serverCpuUsPerReq, double processCpuUsPerReq,
                          Map<String, Double> groupCores, Map<String, Double> groupSleeps, Map<String, Double> parkerPhases,
                          Ledger.Counts counts, Fates.Counts fates,
                          long registrationsAfter) {
        /** CPU per request to judge on: the server's where it could be separated, else the process's. */
        public double cpuUsPerReq() { return Double.isNaN(serverCpuUsPerReq) ? processCpuUsPerReq : serverCpuUsPerReq; }

        public boolean correct() { return counts.clean() && registrationsAfter == 0; }
    }

    /** A service goal at one level: the ratio against the watcher, its limit, and whether it holds. */
    public record Goal(String name, int clients, double ratio, double limit, boolean atMost) {
        public boolean pass() { return Double.isFinite(ratio) && (atMost ? ratio <= limit : ratio >= limit); }

        public String verdict() {
            return String.format(Locale.ROOT, "%s %.2fx (%s %.2f)", pass() ? "PASS" : "MISS", ratio, atMost ? "<=" : ">=", limit);
        }
    }

    public List<Summary> summaries() {
        List<Summary> out = new ArrayList<>();
        for (int clients : settings.levels()) {
            for (Mode m : settings.modes()) summary(m.label(), clients, false).ifPresent(out::add);
        }
        return out;
    }

    /** The summary of {@code mode} at {@code clients}, over its measured rounds (or its warm-up profile run). */
    public Optional<Summary> summary(String mode, int clients, boolean profile) {
        List<Cell> cs = cells.stream().filter(c -> c.mode().equals(mode) && c.clients() == clients && (c.round() == 0) == profile).toList();
        if (cs.isEmpty()) return Optional.empty();
        Map<String, Double> groups = new LinkedHashMap<>();
        for (String g : cs.getFirst().groupCores().keySet()) groups.put(g, median(cs, c -> c.groupCores().getOrDefault(g, 0.0)));
        Map<String, Double> sleeps = new LinkedHashMap<>();
        for (String g : cs.getFirst().groupSleeps().keySet()) sleeps.put(g, median(cs, c -> c.groupSleeps().getOrDefault(g, 0.0)));
        Map<String, Double> phases = new LinkedHashMap<>();
        for (String k : cs.getFirst().parkerPhases().keySet()) phases.put(k, median(cs, c -> c.parkerPhases().getOrDefault(k, 0.0)));
        Ledger.Counts counts = cs.stream().map(Cell::counts).reduce(Ledger.Counts::plus).orElseThrow();
        Fates.Counts fates = cs.stream().map(Cell::fates).reduce(Fates.Counts::plus).orElseThrow();
        return Optional.of(new Summary(mode, clients, cs.size(), median(cs, Cell::rps), median(cs, c -> c.clientMicros()[0]),
                median(cs, c -> c.clientMicros()[1]), median(cs, c -> c.clientMicros()[2]), median(cs, c -> c.wakeMicros()[0]),
                median(cs, c -> c.wakeMicros()[1]), median(cs, c -> c.wakeMicros()[2]), median(cs, Cell::serverCpuUsPerReq),
                median(cs, Cell::processCpuUsPerReq), groups, sleeps, phases, counts, fates,
                cs.stream().mapToLong(Cell::registrationsAfter).max().orElse(0)));
    }

    /** The mode the goals are judged on: {@code reactor} (the library's defaults) if it ran, else the first reactor mode. */
    public Optional<String> judgedMode() {
        Optional<Mode> m = settings.modes().stream().filter(x -> x.label().equals("reactor")).findFirst();
        if (m.isEmpty()) m = settings.modes().stream().filter(x -> x instanceof Mode.Reactor).findFirst();
        return m.map(Mode::label);
    }

    /** The mode the ratios are taken against: the first watcher at 100 µs ({@link Mode#isBaseline}), if one ran. */
    public Optional<String> baselineMode() {
        return settings.modes().stream().filter(Mode::isBaseline).findFirst().map(Mode::label);
    }

    /** The service goals for the judged mode at every level, on the ratios against the watcher (empty without both). */
    public List<Goal> goals() {
        List<Goal> out = new ArrayList<>();
        Optional<String> judged = judgedMode(), baseline = baselineMode();
        if (judged.isEmpty() || baseline.isEmpty()) return out;
        for (int clients : settings.levels()) {
            Optional<Summary> us = summary(judged.get(), clients, false), base = summary(baseline.get(), clients, false);
            if (us.isEmpty() || base.isEmpty()) continue;
            Summary a = us.get(), w = base.get();
            // The best watcher: the watcher setting (any interval that ran) with the lowest wake p50 at this level.
            double bestWatcherP50 = settings.modes().stream().filter(m -> m instanceof Mode.Watcher)
                    .flatMap(m -> summary(m.label(), clients, false).stream()).mapToDouble(Summary::wakeP50).min().orElse(w.wakeP50());
            out.add(new Goal("requests/s", clients, a.rps() / w.rps(), 0.98, false));
            out.add(new Goal("CPU per request", clients, a.cpuUsPerReq() / w.cpuUsPerReq(), 1.0, true));
            out.add(new Goal("store->running p50", clients, a.wakeP50() / w.wakeP50(), 0.6, true));
            out.add(new Goal("p50 vs best watcher", clients, a.wakeP50() / bestWatcherP50, 0.75, true));
            out.add(new Goal("store->running p99", clients, a.wakeP99() / w.wakeP99(), 1.0, true));
        }
        return out;
    }

    /** The sleeps per request of the waiting groups: the mode's wake path and the carriers that run its handlers. */
    static double waitingSleeps(Map<String, Double> groupSleeps) {
        return ServiceBench.CpuSnapshot.WAITING.stream().mapToDouble(g -> groupSleeps.getOrDefault(g, 0.0)).sum();
    }

    /** Whether every cell answered every request once with the right payload and ended with no registration. */
    public boolean correct() { return cells.stream().allMatch(Cell::correct); }

    /** The report as text: the run, a table per level, the ratios and goals, the warm-up profile. */
    public String table() {
        StringBuilder b = new StringBuilder();
        b.append(f("gar service  %s  |  %s  |  %s  |  host load %s%n", date, machine, jdk, load));
        b.append(f("settings: %d round(s), warm-up %s, window %s per cell, at most %d requests per cell, %d load carriers%n",
                settings.rounds(), seconds(settings.warmup().toNanos()), seconds(settings.window().toNanos()), settings.maxRequests(),
                settings.loadCarriers()));
        notes.forEach(n -> b.append("note: ").append(n).append('\n'));
        b.append(f("%n%-24s %7s %9s %9s %9s %9s %9s %9s %9s %8s %8s  %s%n", "mode", "clients", "rps", "cli p50", "cli p99", "cli p99.9",
                "wake p50", "wake p90", "wake p99", "us/req", "proc/req", "lost/dbl/wrong/fail regs"));
        for (Summary s : summaries()) {
            b.append(f("%-24s %7d %9.0f %9s %9s %9s %9s %9s %9s %8.1f %8.1f  %d/%d/%d/%d %d%n", s.mode(), s.clients(), s.rps(),
                    us(s.clientP50()), us(s.clientP99()), us(s.clientP999()), us(s.wakeP50()), us(s.wakeP90()), us(s.wakeP99()),
                    s.serverCpuUsPerReq(), s.processCpuUsPerReq(), s.counts().lost(), s.counts().doubled(), s.counts().wrong(),
                    s.counts().failed(), s.registrationsAfter()));
        }
        b.append(f("%nCPU by thread group (cores, median over rounds):%n%-24s %7s", "mode", "clients"));
        List<String> groupNames = summaries().isEmpty() ? List.of() : List.copyOf(summaries().getFirst().groupCores().keySet());
        for (String g : groupNames) b.append(f(" %14s", g));
        b.append('\n');
        for (Summary s : summaries()) {
            b.append(f("%-24s %7d", s.mode(), s.clients()));
            for (String g : groupNames) b.append(f(" %14.3f", s.groupCores().get(g)));
            b.append('\n');
        }
        if (summaries().stream().anyMatch(s -> !s.groupSleeps().isEmpty())) {
            b.append(f("%nOS sleeps per request by thread group (voluntary context switches, median over rounds; waiting: carriers, parkers, watcher and the JDK's scheduler, the mode's wake path and the threads that run its handlers):%n%-24s %7s", "mode", "clients"));
            List<String> sleepGroups = summaries().stream().filter(s -> !s.groupSleeps().isEmpty()).findFirst().orElseThrow().groupSleeps().keySet().stream().toList();
            for (String g : sleepGroups) b.append(f(" %14s", g));
            b.append(f(" %9s%n", "waiting"));
            for (Summary s : summaries()) {
                if (s.groupSleeps().isEmpty()) continue;
                b.append(f("%-24s %7d", s.mode(), s.clients()));
                for (String g : sleepGroups) b.append(f(" %14.2f", s.groupSleeps().getOrDefault(g, 0.0)));
                b.append(f(" %9.2f%n", waitingSleeps(s.groupSleeps())));
            }
        }
        if (summaries().stream().anyMatch(s -> !s.parkerPhases().isEmpty())) {
            b.append(f("%nThe parkers' CPU by phase (cores, median over rounds; rest: their CPU less the phases, the OS's sleeps and wakes; parks/s: the turns that ended in a line park, each at most one OS sleep):%n"));
            b.append(f("%-24s %7s %8s %8s %8s %8s %9s %9s %7s %7s %7s %9s %7s%n", "mode", "clients", "turn", "spin", "host", "rest", "turns/s", "parks/s",
                    "empty", "hosted", "ran", "c.turns/s", "c.woke"));
            for (Summary s : summaries()) {
                Map<String, Double> p = s.parkerPhases();
                if (p.isEmpty()) continue;
                b.append(f("%-24s %7d %8.3f %8.3f %8.3f %8.3f %9.0f %9.0f %6.0f%% %6.0f%% %6.0f%% %9.0f %6.0f%%%n", s.mode(), s.clients(), p.get("turn_cores"),
                        p.get("spin_cores"), p.get("host_cores"), p.get("rest_cores"), p.get("turns_per_s"), p.get("parks_per_s"), 100 * p.get("empty_turn_share"),
                        100 * p.get("hosted_share"), 100 * p.get("ran_waiting_share"), p.get("carrier_turns_per_s"), 100 * p.get("carrier_woke_share")));
            }
        }
        if (settings.fates()) {
            b.append(f("%nFates (1 request in %d timed out at %d us, cancelled or interrupted %d us into its wait; all cells, warm-up included):%n",
                    Fate.EVERY, Fate.TIMEOUT_NANOS / 1000, Fate.ACT_AFTER_NANOS / 1000));
            b.append(f("%-24s %7s %8s %9s %9s %11s %7s %12s %10s%n", "mode", "clients", "fated", "timed out", "cancelled", "interrupted",
                    "beaten", "later right", "contract"));
            for (Summary s : summaries()) {
                Fates.Counts c = s.fates();
                b.append(f("%-24s %7d %8d %9d %9d %11d %7d %12d %10s%n", s.mode(), s.clients(), c.fated(), c.timedOut(), c.cancelled(),
                        c.interrupted(), c.beaten(), c.completedLater(), c.violations() == 0 ? "kept" : c.violations() + " broken"));
            }
            cells.stream().map(c -> c.fates().firstViolation()).filter(v -> !v.isEmpty()).findFirst()
                    .ifPresent(v -> b.append("  first breach of the contract: ").append(v).append('\n'));
        }
        b.append(f("%nRatios against the 100 us watcher, %s (rps, CPU/request, wake p50, wake p99, client p99):%n",
                baselineMode().orElse("not run")));
        for (int clients : settings.levels()) {
            Optional<Summary> base = baselineMode().flatMap(l -> summary(l, clients, false));
            if (base.isEmpty()) continue;
            Summary w = base.get();
            for (Mode m : settings.modes()) {
                if (m.label().equals(w.mode())) continue;
                summary(m.label(), clients, false).ifPresent(s -> b.append(f("%-24s %7d   rps %.2fx  cpu/req %.2fx  wake p50 %.2fx  p99 %.2fx  client p99 %.2fx%n",
                        s.mode(), clients, s.rps() / w.rps(), s.cpuUsPerReq() / w.cpuUsPerReq(), s.wakeP50() / w.wakeP50(),
                        s.wakeP99() / w.wakeP99(), s.clientP99() / w.clientP99())));
            }
        }
        List<Goal> goals = goals();
        if (!goals.isEmpty()) {
            b.append(f("%nGoals for %s (ratios against the 100 us watcher; p50 also against the best watcher setting that ran):%n",
                    judgedMode().orElseThrow()));
            for (Goal g : goals) b.append(f("  %-20s %5d clients  %s%n", g.name(), g.clients(), g.verdict()));
            long passed = goals.stream().filter(Goal::pass).count();
            b.append(f("  %d of %d goals pass%n", passed, goals.size()));
        }
        b.append(f("Correctness: %s (lost, doubled, wrong answers and registrations left, all cells)%n",
                correct() ? "PASS, all 0" : "FAIL"));
        if (settings.profileSeconds() > 0) {
            b.append(f("%nWarm-up profile at %d clients: wake p50 (us) in each second from a fresh server%n%-24s",
                    settings.profileClients(), "mode"));
            for (int i = 1; i <= settings.profileSeconds(); i++) b.append(f(" %6d", i));
            b.append(f("  %s%n", "p50 of the first 3 s / of the last 5 s"));
            for (Mode m : settings.modes()) {
                Optional<Cell> c = cells.stream().filter(x -> x.round() == 0 && x.mode().equals(m.label())).findFirst();
                if (c.isEmpty()) continue;
                List<Double> ps = c.get().wakeP50PerSecond();
                b.append(f("%-24s", m.label()));
                for (double v : ps) b.append(f(" %6.0f", v));
                double ratio = c.get().warmupRatio();
                b.append(f("  %s%n", Double.isNaN(ratio) ? "n/a" : f("%.2fx (%s <= 1.5)", ratio, ratio <= 1.5 ? "PASS" : "MISS")));
                b.append(f("%-24s", "  handlers woken/s"));
                for (long v : c.get().wakesPerSecond()) b.append(f(" %6d", v));
                b.append(f("  steady (90%% of the last 5 s) after %d s%n", c.get().secondsToSteadyRate()));
            }
        }
        return b.toString();
    }

    /** The run as a JSON-ready tree of maps, lists, strings and numbers. */
    public Map<String, Object> json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("date", date);
        root.put("machine", machine);
        root.put("jdk", jdk);
        root.put("host_load", load);
        Map<String, Object> set = new LinkedHashMap<>();
        set.put("modes", settings.modes().stream().map(Mode::label).toList());
        set.put("clients", settings.levels());
        set.put("rounds", settings.rounds());
        set.put("warmup_s", settings.warmup().toNanos() / 1e9);
        set.put("window_s", settings.window().toNanos() / 1e9);
        set.put("max_requests", settings.maxRequests());
        set.put("load_carriers", settings.loadCarriers());
        set.put("mode_settings", settings.modes().stream().map(ServiceRun::modeJson).toList());
        set.put("fates", settings.fates());
        if (settings.fates()) {
            set.put("fate_every", Fate.EVERY);
            set.put("fate_timeout_us", Fate.TIMEOUT_NANOS / 1e3);
            set.put("fate_act_after_us", Fate.ACT_AFTER_NANOS / 1e3);
        }
        set.put("baseline_mode", baselineMode().orElse(""));
        root.put("settings", set);
        root.put("notes", notes);
        List<Object> sums = new ArrayList<>();
        for (Summary s : summaries()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("mode", s.mode());
            m.put("clients", s.clients());
            m.put("rounds", s.rounds());
            m.put("rps", s.rps());
            m.put("client_us", ordered("p50", s.clientP50(), "p99", s.clientP99(), "p99.9", s.clientP999()));
            m.put("wake_us", ordered("p50", s.wakeP50(), "p90", s.wakeP90(), "p99", s.wakeP99()));
            m.put("server_cpu_us_per_request", s.serverCpuUsPerReq());
            m.put("process_cpu_us_per_request", s.processCpuUsPerReq());
            m.put("cpu_cores_by_group", s.groupCores());
            if (!s.groupSleeps().isEmpty()) m.put("os_sleeps_per_request_by_group", s.groupSleeps());
            if (!s.parkerPhases().isEmpty()) m.put("parker_phases", s.parkerPhases());
            m.put("counts", counts(s.counts()));
            m.put("fates", fates(s.fates()));
            m.put("registrations_after", s.registrationsAfter());
            sums.add(m);
        }
        root.put("summaries", sums);
        List<Object> cs = new ArrayList<>();
        for (Cell c : cells) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("mode", c.mode());
            m.put("clients", c.clients());
            m.put("round", c.round());
            m.put("seconds", c.seconds());
            m.put("requests", c.requests());
            m.put("rps", c.rps());
            m.put("client_us", Arrays.stream(c.clientMicros()).boxed().toList());
            m.put("wake_us", Arrays.stream(c.wakeMicros()).boxed().toList());
            m.put("server_cpu_us_per_request", c.serverCpuUsPerReq());
            m.put("process_cpu_us_per_request", c.processCpuUsPerReq());
            m.put("cpu_cores_by_group", c.groupCores());
            m.put("cpu_cores_by_thread_name", c.threadCores());
            if (!c.groupSleeps().isEmpty()) m.put("os_sleeps_per_request_by_group", c.groupSleeps());
            if (!c.parkerPhases().isEmpty()) m.put("parker_phases", c.parkerPhases());
            m.put("counts", counts(c.counts()));
            m.put("fates", fates(c.fates()));
            m.put("registrations_after", c.registrationsAfter());
            if (!c.wakeP50PerSecond().isEmpty()) {
                m.put("wake_p50_us_per_second", c.wakeP50PerSecond());
                m.put("warmup_first3s_over_last5s", c.warmupRatio());
                m.put("wakes_per_second", c.wakesPerSecond());
                m.put("seconds_to_steady_rate", c.secondsToSteadyRate());
            }
            cs.add(m);
        }
        root.put("cells", cs);
        List<Object> gs = new ArrayList<>();
        for (Goal g : goals()) {
            gs.add(ordered("goal", g.name(), "clients", g.clients(), "ratio", g.ratio(), "limit", g.limit(), "pass", g.pass()));
        }
        root.put("judged_mode", judgedMode().orElse(""));
        root.put("goals", gs);
        root.put("correct", correct());
        return root;
    }

    /** A map in the order its keys are given ({@code key, value, key, value, ...}). */
    private static Map<String, Object> ordered(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    /** A mode as the JSON names it: its kind and what it was set to. */
    private static Map<String, Object> modeJson(Mode m) {
        return switch (m) {
            case Mode.Reactor r -> ordered("label", r.label(), "kind", "reactor", "settings", r.settings());
            case Mode.Watcher w -> ordered("label", w.label(), "kind", "watcher", "interval_us", w.interval().toNanos() / 1e3,
                    "baseline", w.isBaseline());
            case Mode.SleepPoll p -> ordered("label", p.label(), "kind", "sleep1");
        };
    }

    private static Map<String, Object> fates(Fates.Counts c) {
        return ordered("fated", c.fated(), "timed_out", c.timedOut(), "cancelled", c.cancelled(), "interrupted", c.interrupted(),
                "beaten", c.beaten(), "completed_later", c.completedLater(), "contract_breaches", c.violations(),
                "first_breach", c.firstViolation());
    }

    private static Map<String, Object> counts(Ledger.Counts c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("issued", c.issued());
        m.put("answered", c.answered());
        m.put("lost", c.lost());
        m.put("doubled", c.doubled());
        m.put("wrong", c.wrong());
        m.put("failed", c.failed());
        m.put("reconnects", c.reconnects());
        return m;
    }

    public String date() { return date; }

    public String machine() { return machine; }

    public String load() { return load; }

    private static double median(List<Cell> cs, ToDoubleFunction<Cell> f) {
        return median(cs.stream().mapToDouble(f).toArray());
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s); // NaN sorts last
        int n = s.length;
        if (n == 0) return Double.NaN;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static String us(double micros) {
        if (Double.isNaN(micros)) return "-";
        if (micros >= 10_000) return f("%.1fms", micros / 1000);
        if (micros >= 1000) return f("%.2fms", micros / 1000);
        return f("%.0fus", micros);
    }

    private static String seconds(long nanos) { return f("%.1f s", nanos / 1e9); }

    private static String f(String format, Object... args) { return String.format(Locale.ROOT, format, args); }
}
