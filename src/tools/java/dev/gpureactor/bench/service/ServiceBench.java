package dev.gpureactor.bench.service;

import dev.gpureactor.loom.RunStats;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/*
 * Implementation overview. A run is rounds x levels x modes cells, the modes of a level taking
 * turns in an order rotated each round, so that a drifting host load falls on all modes alike.
 * Each mode's server side lives for the whole run, as a service's would: its simulated device
 * (16 streams, 2 lines; the lines keep their readback points, so a reactor keeps its estimates)
 * and its waiting (a reactor, or the JDK executor with a watcher or sleep polling). Each cell
 * starts a JDK HttpServer (or the Front a caller plugs in) on 127.0.0.1 with the mode's executor, and N clients on the load
 * generator's own carriers; the warm-up profile alone uses a fresh server side. The clients
 * connect first; then the warm-up runs, unmeasured; then the window, in one-second ticks
 * that swap the histograms (and feed the progress line and the warm-up profile); then the clients
 * stop after their request in flight, and the cell checks the ledger and the registrations.
 *
 * Server CPU is the process's CPU over the window less the load generator's carriers and the
 * simulated device's stream threads (the "GPU"); both are named platform threads, so ThreadMXBean
 * sees them. Virtual threads' CPU is their carriers'.
 */

/** The service benchmark: {@link #run} with {@link Settings}, reporting to a {@link Progress}. */
public final class ServiceBench {
    private ServiceBench() {}

    /**
     * @param modes          the modes, in their first round's order
     * @param levels         client counts, in order
     * @param rounds         how often each (level, mode) cell runs; the report takes medians
     * @param prewarm        before the first round, each mode runs this long at the first level, unrecorded, so that
     *                       the JIT has compiled the shared code (server, clients) before any cell counts (0: none)
     * @param warmup         unmeasured time per cell after the clients connect
     * @param window         measured time per cell
     * @param maxRequests    requests per cell at most (warm-up included): the count bound
     * @param loadCarriers   carrier threads of the load generator
     * @param profileSeconds with a warm-up profile: seconds per mode of the profile run (0: none)
     * @param profileClients the profile run's client count
     * @param fates          whether 1 request in 40 has a fate: timed out, cancelled or interrupted, by its id
     * @param hook           takes reactor settings that {@link Mode#OPTIONS} does not know
     */
    public record Settings(List<Mode> modes, List<Integer> levels, int rounds, Duration prewarm, Duration warmup, Duration window,
                           int maxRequests, int loadCarriers, int profileSeconds, int profileClients, boolean fates,
                           Mode.BuilderHook hook) {
        public Settings {
            modes = List.copyOf(modes);
            levels = List.copyOf(levels);
            Objects.requireNonNull(prewarm, "prewarm");
            Objects.requireNonNull(warmup, "warmup");
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(hook, "hook");
            if (modes.isEmpty() || levels.isEmpty()) throw new IllegalArgumentException("no modes or no client levels");
            if (levels.stream().anyMatch(n -> n < 1 || n > 65_536)) throw new IllegalArgumentException("client levels must be 1..65536");
            if (rounds < 1 || rounds > 100) throw new IllegalArgumentException("rounds must be 1..100");
            if (window.toMillis() < 100) throw new IllegalArgumentException("the window must be at least 100 ms");
            if (!prewarm.isZero() && prewarm.toMillis() < 100) throw new IllegalArgumentException("the pre-warm must be 0 or at least 100 ms");
            if (maxRequests < 1) throw new IllegalArgumentException("maxRequests must be >= 1");
            if (loadCarriers < 1) throw new IllegalArgumentException("loadCarriers must be >= 1");
            if (profileSeconds < 0) throw new IllegalArgumentException("the warm-up profile's seconds must be >= 0; got " + profileSeconds);
            if (profileClients < 1) throw new IllegalArgumentException("--profile-clients must be >= 1; got " + profileClients);
        }

        /** Seconds the run takes, setup excluded. */
        public double estimatedSeconds() {
            double cell = (warmup.toNanos() + window.toNanos()) / 1e9;
            return modes.size() * (levels.size() * rounds * cell + profileSeconds + prewarm.toNanos() / 1e9);
        }

        /** Sockets open at once at the largest level, both ends being in this process. */
        public int socketsNeeded() {
            int max = levels.stream().mapToInt(Integer::intValue).max().orElse(0);
            if (profileSeconds > 0) max = Math.max(max, profileClients);
            return 2 * max;
        }
    }

    /**
     * Where a run is: cell {@code index} of {@code total}, and a line that says what it does now;
     * {@code done}: the line is the cell's result (once per cell), not a passing state.
     */
    @FunctionalInterface
    public interface Progress {
        void at(int index, int total, String line, boolean done);

        Progress NONE = (i, t, l, d) -> { };
    }

    /**
     * The machine a run is reported with: its description, the JDK, and the host's load average (read
     * at the start and the end of the run). The command line passes {@code gar bench}'s.
     */
    public record Host(String machine, String jdk, Supplier<String> loadAverage) {
        /** From the system properties alone, no load average. */
        public static Host basic() {
            return new Host(Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.arch") + ", "
                    + System.getProperty("os.name") + " " + System.getProperty("os.version"),
                    System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"), () -> "");
        }
    }

    /** {@link #run(Settings, Progress, Host)} on a {@link Host#basic()} description. */
    public static ServiceRun run(Settings s, Progress progress) throws InterruptedException, IOException {
        return run(s, progress, Host.basic());
    }

    /** Runs every cell (and the warm-up profiles) on the JDK's {@code HttpServer} and returns the report. */
    public static ServiceRun run(Settings s, Progress progress, Host host) throws InterruptedException, IOException {
        return run(s, progress, host, Front.JDK);
    }

    /** A request's answer: its status and body (a fixed length). */
    record Answer(int status, byte[] body) {}

    /** What serves a request, given its raw query ({@code id=N}); blocks its thread until the answer is ready. */
    @FunctionalInterface
    interface Answerer {
        Answer answer(String rawQuery);
    }

    /**
     * The HTTP server each cell starts on the loopback, {@link #JDK} by default. Another one (a server
     * the library does not depend on) plugs in through {@link #run(Settings, Progress, Host, Front)}.
     */
    interface Front {
        /**
         * Starts a server on 127.0.0.1, a free port, that answers {@code GET /work?id=N} through
         * {@code answerer}; a request's thread comes from {@code executor}, the mode's, unless the front
         * says otherwise in {@link #note}.
         */
        Started start(Mode mode, ExecutorService executor, Answerer answerer) throws IOException;

        /** Whether a thread (by its name less a trailing number) is the server's own: its CPU group is {@code http-dispatcher}. */
        boolean owns(String threadGroup);

        /** A line for the report's notes that names the server, or empty. */
        default String note() { return ""; }

        /** A started server. */
        interface Started {
            InetSocketAddress address();

            /** Stops at once: every client has stopped before. */
            void stop();
        }

        /** The JDK's {@code HttpServer}, its executor the mode's. */
        Front JDK = new Front() {
            @Override
            public Started start(Mode mode, ExecutorService executor, Answerer answerer) throws IOException {
                HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16_384);
                server.createContext(LoadClient.PATH, ex -> reply(ex, answerer.answer(ex.getRequestURI().getRawQuery())));
                server.setExecutor(executor);
                server.start();
                return new Started() {
                    @Override
                    public InetSocketAddress address() { return server.getAddress(); }

                    @Override
                    public void stop() { server.stop(0); }
                };
            }

            @Override
            public boolean owns(String threadGroup) { return threadGroup.startsWith("HTTP-Dispatcher"); }
        };
    }

    /** Runs every cell (and the warm-up profiles) on {@code front}'s server and returns the report. */
    static ServiceRun run(Settings s, Progress progress, Host host, Front front) throws InterruptedException, IOException {
        String loadAtStart = host.loadAverage().get();
        // The JDK server's defaults would distort a keep-alive benchmark: Nagle's algorithm delays the
        // body written after the headers, and more than 200 idle connections get closed. Set before the
        // server's configuration class loads (a user running a real service sets them the same way).
        if (System.getProperty("sun.net.httpserver.nodelay") == null) System.setProperty("sun.net.httpserver.nodelay", "true");
        if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
            System.setProperty("sun.net.httpserver.maxIdleConnections", "1000000");
        }
        List<Cell> cells = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (!front.note().isEmpty()) notes.add(front.note());
        boolean prewarm = !s.prewarm().isZero();
        int total = (s.rounds() * s.levels().size() + (prewarm ? 1 : 0)) * s.modes().size() + (s.profileSeconds() > 0 ? s.modes().size() : 0);
        int index = 0;
        LoadThreads load = LoadThreads.open(s.loadCarriers());
        load.separate().ifPresent(notes::add);
        List<Rig> rigs = new ArrayList<>();
        try {
            for (Mode m : s.modes()) rigs.add(Rig.open(m, s.hook()));
            if (prewarm) {
                for (int mi = 0; mi < s.modes().size(); mi++) {
                    cell(s, front, load, s.modes().get(mi), rigs.get(mi), s.levels().getFirst(), 0, Duration.ZERO, s.prewarm(), false, index++,
                            total, progress); // not recorded
                }
            }
            for (int round = 0; round < s.rounds(); round++) {
                for (int li = 0; li < s.levels().size(); li++) {
                    int n = s.modes().size();
                    for (int k = 0; k < n; k++) {
                        int mi = (k + round + li) % n;
                        cells.add(cell(s, front, load, s.modes().get(mi), rigs.get(mi), s.levels().get(li), round + 1, s.warmup(), s.window(),
                                false, index++, total, progress));
                    }
                }
            }
        } finally {
            rigs.forEach(Rig::close);
        }
        if (s.profileSeconds() > 0) {
            for (Mode mode : s.modes()) {
                try (Rig fresh = Rig.open(mode, s.hook())) {
                    cells.add(cell(s, front, load, mode, fresh, s.profileClients(), 0, Duration.ZERO, Duration.ofSeconds(s.profileSeconds()), true,
                            index++, total, progress));
                }
            }
        }
        load.close();
        String loadAtEnd = host.loadAverage().get();
        String hostLoad = loadAtStart.isEmpty() ? "unknown" : loadAtStart + " at start, " + loadAtEnd + " at end";
        return new ServiceRun(s, cells, notes, host.machine(), host.jdk(), hostLoad);
    }

    /**
     * A mode's server side for a whole run: its simulated device (whose lines and slots keep their
     * readback points, so a reactor keeps its estimates across cells) and its way of waiting.
     */
    private record Rig(SimWork work, Waiting waiting) implements AutoCloseable {
        static Rig open(Mode mode, Mode.BuilderHook hook) {
            SimWork work = new SimWork();
            try {
                return new Rig(work, Waiting.open(mode, hook));
            } catch (RuntimeException e) {
                work.close();
                throw e;
            }
        }

        @Override
        public void close() {
            waiting.close();
            work.close();
        }
    }

    private static Cell cell(Settings s, Front front, LoadThreads load, Mode mode, Rig rig, int clients, int round, Duration warmup, Duration window,
                             boolean profile, int index, int total, Progress progress) throws InterruptedException, IOException {
        String what = (profile ? "warm-up profile" : round == 0 ? "pre-warm" : "round " + round) + ", " + clients + " clients, "
                + mode.label();
        progress.at(index, total, what + ": connecting", false);
        Ledger ledger = new Ledger(s.maxRequests());
        Fates fates = new Fates(s.fates(), ledger);
        Recorder wake = new Recorder(3);
        Recorder latency = new Recorder(3);
        CountDownLatch connected = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>(clients);
        AtomicBoolean on = new AtomicBoolean(true);
        long registrationsAfter;
        Ledger.Counts counts;
        Fates.Counts fateCounts;
        CpuSnapshot before, after;
        Optional<RunStats> statsBefore, statsAfter;
        long answeredBefore, answeredAfter;
        Histogram wakeWindow = new Histogram(3), latencyWindow = new Histogram(3);
        List<Histogram> perSecond = new ArrayList<>();
        SimWork work = rig.work();
        Waiting waiting = rig.waiting();
        waiting.cellStarts();
        try {
            Front.Started server = front.start(mode, waiting.executor(), q -> answer(q, work, waiting, ledger, fates, wake));
            try {
                InetSocketAddress address = server.address();
                for (int i = 0; i < clients; i++) {
                    threads.add(load.start(new LoadClient(address, ledger, s.fates(), latency, connected, go, on::get)));
                }
                if (!connected.await(120, TimeUnit.SECONDS)) throw new IOException(what + ": clients still connecting after 120 s");
                go.countDown();
                long t0 = System.nanoTime();
                tick(t0, warmup.toNanos(), progress, index, total, what + ": warm-up", ledger, wake, latency, null, null, null);
                wake.getIntervalHistogram();
                latency.getIntervalHistogram();
                before = CpuSnapshot.take();
                statsBefore = waiting.stats();
                answeredBefore = ledger.answered.sum();
                long t1 = System.nanoTime();
                tick(t1, window.toNanos(), progress, index, total, what + ": measuring", ledger, wake, latency, wakeWindow, latencyWindow,
                        profile ? perSecond : null);
                after = CpuSnapshot.take();
                statsAfter = waiting.stats();
                answeredAfter = ledger.answered.sum();
                on.set(false);
                progress.at(index, total, what + ": stopping", false);
                for (Thread t : threads) {
                    if (!t.join(Duration.ofSeconds(60))) throw new IOException(what + ": a client did not stop within 60 s");
                }
                fates.settle(Duration.ofSeconds(10)); // before the registrations: a wait left pending keeps one until its store
                long settleEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                while ((registrationsAfter = waiting.registrations()) != 0 && System.nanoTime() - settleEnd < 0) Thread.sleep(10);
                counts = ledger.count();
                fateCounts = fates.count(counts.issued());
            } finally {
                on.set(false); // on a failure too: no client is left waiting to start, or requesting
                go.countDown();
                server.stop();
            }
        } finally {
            waiting.cellEnds();
        }
        double seconds = (after.wallNanos - before.wallNanos) / 1e9;
        long requests = answeredAfter - answeredBefore;
        Map<String, Long> groups = after.threads.nanosByGroupSince(before.threads);
        Map<String, Double> groupCores = new LinkedHashMap<>();
        for (String g : CpuSnapshot.GROUPS) groupCores.put(g, 0.0);
        Map<String, Double> threadCores = new LinkedHashMap<>();
        groups.forEach((name, nanos) -> {
            groupCores.merge(CpuSnapshot.group(name, load, front), nanos / 1e9 / seconds, Double::sum);
            threadCores.put(name, nanos / 1e9 / seconds);
        });
        long process = after.processNanos - before.processNanos;
        long javaThreads = groups.values().stream().mapToLong(Long::longValue).sum();
        // What the process burned beyond its Java threads: the JIT's compilers, the GC and the VM thread, which are not
        // Java threads, and any Java thread that ended inside the window (its CPU is lost to ThreadCpu).
        groupCores.put(CpuSnapshot.JVM, Math.max(0, process - javaThreads) / 1e9 / seconds);
        Map<String, Double> groupSleeps = new LinkedHashMap<>(); // OS sleeps per answered request; empty without /proc
        if (after.os.available() && before.os.available() && requests > 0) {
            for (String g : CpuSnapshot.GROUPS) if (!g.equals(CpuSnapshot.JVM)) groupSleeps.put(g, 0.0);
            after.os.sleepsByNameSince(before.os).forEach((name, n) ->
                    groupSleeps.merge(CpuSnapshot.group(name, load, front), (double) n / requests, Double::sum));
        }
        long notServer = Math.round((groupCores.get(CpuSnapshot.LOAD) + groupCores.get(CpuSnapshot.DEVICE)) * seconds * 1e9);
        double perReq = requests == 0 ? Double.NaN : process / 1e3 / requests;
        double serverPerReq = requests == 0 || load.separate().isPresent() ? Double.NaN : (process - notServer) / 1e3 / requests;
        List<Double> p50s = perSecond.stream().map(h -> micros(h, 50)[0]).toList();
        double warmupRatio = perSecond.size() < 8 ? Double.NaN
                : micros(merged(perSecond.subList(0, 3)), 50)[0] / micros(merged(perSecond.subList(perSecond.size() - 5, perSecond.size())), 50)[0];
        Cell c = new Cell(mode.label(), clients, round, seconds, requests, requests / seconds,
                micros(latencyWindow, 50, 99, 99.9), micros(wakeWindow, 50, 90, 99), perReq, serverPerReq, groupCores, threadCores, groupSleeps,
                statsBefore.isPresent() && statsAfter.isPresent() ? Cell.phases(statsBefore.get(), statsAfter.get(), seconds) : Map.of(), counts,
                fateCounts, registrationsAfter, p50s, perSecond.stream().map(Histogram::getTotalCount).toList(), warmupRatio);
        progress.at(index + 1, total, String.format(Locale.ROOT, "%s: %.0f rps, wake p50 %.0f us, lost %d, doubled %d, wrong %d",
                what, c.rps(), c.wakeMicros()[0], counts.lost(), counts.doubled(), counts.wrong()), true);
        return c;
    }

    /**
     * Sleeps through {@code nanos} in one-second ticks; when totals are given, swaps the histograms
     * into them at each tick and at the end (and keeps each second's wake histogram in {@code perSecond}).
     */
    private static void tick(long start, long nanos, Progress progress, int index, int total, String what, Ledger ledger, Recorder wake,
                             Recorder latency, Histogram wakeTotal, Histogram latencyTotal, List<Histogram> perSecond) throws InterruptedException {
        long end = start + nanos;
        long lastAnswered = ledger.answered.sum(), lastAt = start;
        for (long next = start + TimeUnit.SECONDS.toNanos(1); ; next += TimeUnit.SECONDS.toNanos(1)) {
            long until = Math.min(next, end);
            long left;
            while ((left = until - System.nanoTime()) > 0) TimeUnit.NANOSECONDS.sleep(left);
            if (wakeTotal != null) {
                Histogram w = wake.getIntervalHistogram();
                wakeTotal.add(w);
                latencyTotal.add(latency.getIntervalHistogram());
                if (perSecond != null) perSecond.add(w);
            }
            if (until == end) return;
            long now = System.nanoTime(), answered = ledger.answered.sum();
            progress.at(index, total, String.format(Locale.ROOT, "%s %.0f/%.0f s, %.0f rps, failed %d, wrong %d", what,
                    (now - start) / 1e9, nanos / 1e9, (answered - lastAnswered) / ((now - lastAt) / 1e9), ledger.failed.sum(),
                    ledger.wrong.sum()), false);
            lastAnswered = answered;
            lastAt = now;
        }
    }

    private static Histogram merged(List<Histogram> hs) {
        Histogram m = new Histogram(3);
        hs.forEach(m::add);
        return m;
    }

    private static double[] micros(Histogram h, double... percentiles) {
        double[] out = new double[percentiles.length];
        for (int i = 0; i < out.length; i++) out[i] = h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentiles[i]) / 1e3;
        return out;
    }

    /**
     * A request: launch its job, wait in the mode's way, stamp the wake first thing, check the
     * payload, answer with it. A fated request plays its fate ({@link Fates#play}) and, when the fate
     * is met, answers with the fate's word and records no wake. A failure answers 500, which the
     * client counts.
     */
    private static Answer answer(String q, SimWork work, Waiting waiting, Ledger ledger, Fates fates, Recorder wake) {
        try {
            long id = q != null && q.startsWith("id=") ? Long.parseLong(q.substring(3)) : -1;
            if (!ledger.known(id)) throw new IllegalArgumentException("unknown request id " + q);
            Job job = work.launch(id);
            Fate fate = fates.of(id);
            long payload;
            if (fate == Fate.NONE) {
                payload = waiting.await(job);
            } else {
                Fates.Played p = fates.play(fate, waiting, job);
                if (p.met() != Fate.NONE) {
                    ledger.served(id);
                    return new Answer(200, (id + " " + p.met().answer + "\n").getBytes(StandardCharsets.US_ASCII));
                }
                payload = p.payload();
            }
            long woke = System.nanoTime();
            wake.recordValue(Math.max(0, woke - job.storeNanos));
            if (payload != Job.expected(id)) ledger.wrong.increment();
            ledger.served(id);
            return new Answer(200, (id + " " + payload + "\n").getBytes(StandardCharsets.US_ASCII));
        } catch (Exception e) {
            return new Answer(500, (e + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void reply(HttpExchange ex, Answer a) throws IOException {
        try (ex) {
            ex.sendResponseHeaders(a.status(), a.body().length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(a.body());
            }
        }
    }

    /** Process CPU and per-thread CPU at one instant. */
    record CpuSnapshot(long wallNanos, long processNanos, ThreadCpu threads, OsThreads os) {
        static final String CARRIERS = "carriers", PARKERS = "parkers", WATCHER = "watcher", JDK_SCHEDULER = "jdk-scheduler",
                HTTP = "http-dispatcher", DEVICE = "sim-device", LOAD = "load-generator", OTHER = "other", JVM = "jvm";
        /** The groups of the report, in its order; {@link #JVM} is CPU only (the process's less every Java thread's). */
        static final List<String> GROUPS = List.of(CARRIERS, PARKERS, WATCHER, JDK_SCHEDULER, HTTP, DEVICE, LOAD, OTHER, JVM);
        /** The groups whose sleeps make a mode's waiting: its wake path and the carriers that run the handlers. */
        static final List<String> WAITING = List.of(CARRIERS, PARKERS, WATCHER, JDK_SCHEDULER);

        private static final com.sun.management.OperatingSystemMXBean OS =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

        static CpuSnapshot take() {
            ThreadCpu t = ThreadCpu.take(Set.of());
            return new CpuSnapshot(t.wallNanos(), OS.getProcessCpuTime(), t, OsThreads.take());
        }

        /** The report's group of a thread group name (a thread's name less its trailing number). */
        static String group(String name, LoadThreads load) { return group(name, load, Front.JDK); }

        /** The same, with {@code front}'s own threads in the {@code http-dispatcher} group. */
        static String group(String name, LoadThreads load, Front front) {
            if (load.owns(name)) return LOAD; // first: the load pool's timer thread is also named ForkJoinPool-N
            if (front.owns(name)) return HTTP;
            if (name.startsWith("gar-carrier")) return CARRIERS;
            if (name.startsWith("gar-parker")) return PARKERS;
            if (name.startsWith(ScanWatcher.THREAD_NAME) || OsThreads.mayBe(name, ScanWatcher.THREAD_NAME)) return WATCHER;
            if (name.startsWith("ForkJoinPool")) return JDK_SCHEDULER; // the JDK's virtual-thread scheduler (and the common pool)
            if (name.startsWith("gar-sim-")) return DEVICE;
            return OTHER;
        }
    }
}
