package dev.gpureactor.cli;

import dev.gpureactor.json.Json;
import dev.gpureactor.bench.service.Durations;
import dev.gpureactor.bench.service.Mode;
import dev.gpureactor.bench.service.ServiceBench;
import dev.gpureactor.bench.service.ServicePlot;
import dev.gpureactor.bench.service.ServiceRun;
import dev.gpureactor.bench.WakeBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code gar service}: the service benchmark ({@link ServiceBench}, docs/SERVICE.md): a JDK HttpServer
 * on the loopback awaiting simulated GPU work in each mode, closed-loop keep-alive clients, the
 * ratios against the watcher baseline and the goals judged on them. This class parses options,
 * checks the file-descriptor limit, draws the progress line and writes the table, JSON and SVG.
 */
@Command(name = "service", mixinStandardHelpOptions = true, sortOptions = false, defaultValueProvider = ServiceCommand.Defaults.class,
        description = {"The service benchmark: an HttpServer on 127.0.0.1 whose handlers await 0.5-5 ms of simulated GPU work"
                + " (16 streams, 2 lines), closed-loop keep-alive clients, each mode in turn; goals judged on ratios against the watcher.",
                "Modes: reactor[:key=value,...] (keys: carriers, hosting, hardwarePark, carrierTurns, linesPerParker, parkSpin, parkSlice, scheduler, plan), reactor-jdk,"
                        + " watcher[:interval=D] (D: 100us unless given; the 100 us watcher is the baseline), sleep1."})
final class ServiceCommand extends RunCommand<ServiceBench.Settings> {
    @Option(names = "--clients", split = ",", defaultValue = "16,64,512,4096",
            description = "Client levels (default: ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(names = "--modes", defaultValue = DEFAULT_MODES,
            description = "Modes, comma-separated; a mode's settings follow a colon, e.g."
                    + " reactor,reactor:carriers=2,hosting=false,watcher:interval=25us,watcher (default: the library at its defaults and at"
                    + " the settings a user turns, its parkers on the JDK's scheduler, the watcher at 25, 50 and 100 us: ${DEFAULT-VALUE}).")
    String modes;

    @Option(names = "--fates", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "1 request in 40 is timed out at 300 us, cancelled, or has its handler interrupted, in turn by its id, and"
                    + " each outcome is checked against the contract; --no-fates: every request waits for its answer (default: on).")
    boolean fates;

    @Mixin
    RunOptions.Rounds rounds;

    @Option(names = "--prewarm", defaultValue = "3s",
            description = "Before the first round, each mode serves the first level this long, unrecorded, so that no mode pays for"
                    + " the JIT compiling the shared code; 0: none (default: ${DEFAULT-VALUE}).")
    String prewarm;

    @Mixin
    RunOptions.Warmup warmup;

    @Mixin
    RunOptions.Window window;

    @Option(names = "--max-requests", defaultValue = "1000000",
            description = "Requests per cell at most, warm-up included (default: ${DEFAULT-VALUE}).")
    int maxRequests;

    @Option(names = "--load-carriers", description = "Carrier threads of the load generator (default: the cores).")
    Integer loadCarriers;

    @Option(names = "--warmup-profile", description = "Also run each mode once from a fresh server for 20 s and print wake p50 per second.")
    boolean warmupProfile;

    @Option(names = "--profile-clients", defaultValue = "512", description = "Clients of the warm-up profile run (default: ${DEFAULT-VALUE}).")
    int profileClients;

    @Mixin
    RunOptions.Quick quick;

    @Mixin
    OutputOptions.Plot plot;

    @Mixin
    OutputOptions.Report report;

    static final int PROFILE_SECONDS = 20;

    /** The modes that draw the frontier: the library's defaults, the settings a user turns, the control, three watchers. */
    static final String DEFAULT_MODES = "reactor,reactor:parkSlice=100us,reactor:hosting=false,reactor-jdk,"
            + "watcher:interval=25us,watcher:interval=50us,watcher";

    /** The service's warm-up and window per cell, and its rounds. */
    static final class Defaults extends OptionDefaults {
        Defaults() { super(Map.of("--warmup", "3s", "--window", "10s", "--rounds", "2")); }
    }

    @Override
    int run(ServiceBench.Settings settings, PrintWriter err) throws Exception {
        boolean quiet = report.quiet;
        OptionalLong limit = openFileLimit();
        long need = settings.socketsNeeded() + 1000L;
        if (limit.isPresent() && limit.getAsLong() < need) {
            err.printf(Locale.ROOT, "gar service: %d clients need about %d file descriptors (a socket at each end), and the limit is %d."
                    + " Raise it first (ulimit -n %d), or leave out the largest level (--clients).%n",
                    settings.socketsNeeded() / 2, need, limit.getAsLong(), Math.max(need, 10_000));
            return 2;
        }
        if (!quiet) {
            err.printf(Locale.ROOT, "gar service: %d modes x %d levels x %d rounds, about %.0f s plus set-up%n", settings.modes().size(),
                    settings.levels().size(), settings.rounds(), settings.estimatedSeconds());
        }
        ProgressLine progress = new ProgressLine(new StatusLine(err, quiet));
        ServiceRun run = ServiceBench.run(settings, progress::at,
                new ServiceBench.Host(WakeBench.machine(), WakeBench.jdk(), WakeBench::loadAverage));
        progress.line.finish();
        report.write(run.table(), () -> Json.write(run.json()));
        if (plot.write(() -> ServicePlot.render(run)) && !quiet) err.println("gar service: plot written to " + plot.plot);
        return run.correct() ? 0 : 1;
    }

    @Override
    ServiceBench.Settings settings() {
        var parsed = spec.commandLine().getParseResult();
        if (quick.quick) {
            if (!parsed.hasMatchedOption("--clients")) clients = List.of(8);
            if (!parsed.hasMatchedOption("--rounds")) rounds.rounds = 1;
            if (!parsed.hasMatchedOption("--warmup")) warmup.warmup = "0.5s";
            if (!parsed.hasMatchedOption("--window")) window.window = "1.5s";
            if (!parsed.hasMatchedOption("--prewarm")) prewarm = "0";
        }
        int load = loadCarriers != null ? loadCarriers : Runtime.getRuntime().availableProcessors();
        return new ServiceBench.Settings(Mode.parseList(modes), clients, rounds.rounds, Durations.parse(prewarm, "--prewarm"),
                warmup.value(Duration.ZERO), window.value(Duration.ZERO), maxRequests, load, warmupProfile ? PROFILE_SECONDS : 0, profileClients,
                fates, Mode.BuilderHook.NONE);
    }

    /** The soft limit on open files, from /proc/self/limits (empty where there is none to read). */
    static OptionalLong openFileLimit() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (!l.startsWith("Max open files")) continue;
                String soft = l.substring("Max open files".length()).trim().split("\\s+")[0];
                return soft.equals("unlimited") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(soft));
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable: no check
        }
        return OptionalLong.empty();
    }

    /** The progress line: time, cell and mode; off a terminal, only each cell's result line. */
    private record ProgressLine(StatusLine line) {
        synchronized void at(int index, int total, String what, boolean done) {
            if (line.quiet()) return;
            String text = String.format(Locale.ROOT, "gar service: %4.0fs [%d/%d] %s", line.seconds(),
                    Math.min(done ? index : index + 1, total), total, what);
            if (!line.terminal()) {
                if (done) line.println(text);
                return;
            }
            line.redraw(text, done);
        }
    }
}
