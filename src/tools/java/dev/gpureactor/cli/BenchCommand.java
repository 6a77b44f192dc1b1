package dev.gpureactor.cli;

import dev.gpureactor.bench.service.Durations;
import dev.gpureactor.bench.BenchRun;
import dev.gpureactor.bench.DeviceTiming;
import dev.gpureactor.bench.Jitter;
import dev.gpureactor.bench.Knobs;
import dev.gpureactor.bench.Strategy;
import dev.gpureactor.bench.SvgPlot;
import dev.gpureactor.bench.WakeBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code gar bench}: the wake-latency and waiting-CPU comparison in a quick form (about a minute
 * with the defaults), with the goals judged on the run's own ratios. The measuring code is
 * {@link WakeBench} (shared with the JMH benchmarks); this class parses options, draws the
 * progress bar on stderr and writes the table, the JSON and the SVG.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false, defaultValueProvider = BenchCommand.Defaults.class,
        description = {"Wake latency (store -> waiter running again) and waiting CPU of gpu-reactor against the usual ways to wait,"
                + " on the simulated device; goals judged on this run's own ratios.",
                "Strategies: reactor, reactor-flag, reactor-poll, reactor-jdk, busy-spin, park-poll, sleep-poll, cf-watcher, cpu-notify."})
final class BenchCommand extends RunCommand<WakeBench.Settings> {
    @Option(names = "--waits", split = ",", defaultValue = "100us,1ms,10ms",
            description = "Wait lengths, from the wait's start to the device's store (default: ${DEFAULT-VALUE}).")
    List<String> waits;

    @Option(names = "--strategies", split = ",", description = "Strategies to run (default: all).")
    List<String> strategies;

    @Option(names = "--duration", defaultValue = "1.5s",
            description = "Measuring time per strategy and wait length, split over the rounds (default: ${DEFAULT-VALUE}).")
    String duration;

    @Mixin
    RunOptions.Warmup warmup;

    @Mixin
    RunOptions.Rounds rounds;

    @Option(names = "--min-waits", defaultValue = "20",
            description = "At least this many measured waits per cell; the window stretches to reach it (default: ${DEFAULT-VALUE}).")
    int minWaits;

    @Option(names = "--futures", defaultValue = "100000",
            description = "Waiting futures for the heap and wake-all run; 0 skips it (default: ${DEFAULT-VALUE}).")
    int futures;

    @Option(names = "--park-spin", description = "GpuReactor.Builder.parkSpin for every reactor (default: the library's).")
    String parkSpin;

    @Option(names = "--margin-us", description = "margin_us of the deadline plan (default: the library's, 100).")
    Long marginUs;

    @Option(names = "--park-slice", description = "GpuReactor.Builder.parkSlice for every reactor (default: the library's).")
    String parkSlice;

    @Option(names = "--carrier-turns", arity = "1",
            description = "GpuReactor.Builder.carrierTurns for every reactor: true or false (default: the library's).")
    Boolean carrierTurns;

    @Mixin
    ReactorOptions.Carriers carriers;

    @Option(names = "--jitter", defaultValue = "pollers",
            description = "Whose waits get a uniform jitter of +-min(wait, 1ms)/2: none, pollers (park-poll, sleep-poll; their latency"
                    + " otherwise depends on the wait's phase against their poll period), all (default: ${DEFAULT-VALUE}).")
    String jitter;

    @Option(names = "--device", defaultValue = "random",
            description = "How the simulated device times its store: random (sleep, then spin 0-100 us: off the timer interrupt),"
                    + " exact (spin the last 200 us to the exact time), timer (store when its OS timer fires; pollers woken by the"
                    + " same interrupt see it at once) (default: ${DEFAULT-VALUE}).")
    String device;

    @Mixin
    OutputOptions.Plot plot;

    @Mixin
    OutputOptions.Report report;

    /** The bench's warm-up before a strategy's first slice, and its rounds. */
    static final class Defaults extends OptionDefaults {
        Defaults() { super(Map.of("--warmup", "0.4s", "--rounds", "3")); }
    }

    @Override
    int run(WakeBench.Settings settings, PrintWriter err) throws Exception {
        boolean quiet = report.quiet;
        if (!quiet) {
            err.printf(Locale.ROOT, "gar bench: %d strategies x %d wait lengths, %.0f s of waiting%s; knobs: %s%n",
                    settings.strategies().size(), settings.waits().size(), settings.estimatedSeconds(),
                    settings.futures() > 0 ? " + " + settings.futures() + " futures" : "", settings.knobs().describe());
        }
        ProgressBar bar = new ProgressBar(new StatusLine(err, quiet));
        BenchRun run = WakeBench.run(settings, bar::at);
        bar.line.finish();
        report.write(run.table(), run::json);
        if (plot.write(() -> SvgPlot.render(run)) && !quiet) err.println("gar bench: plot written to " + plot.plot);
        return 0;
    }

    @Override
    WakeBench.Settings settings() {
        List<Strategy> chosen = strategies == null ? Arrays.asList(Strategy.values())
                : strategies.stream().map(Strategy::of).distinct().toList();
        List<Duration> lengths = new ArrayList<>();
        for (String w : waits) {
            Duration d = duration(w, "--waits");
            if (d.isZero() || d.isNegative()) throw new IllegalArgumentException("--waits: " + w + " is not positive");
            lengths.add(d);
        }
        if (minWaits < 1) throw new IllegalArgumentException("--min-waits must be >= 1, got " + minWaits);
        if (rounds.rounds < 1 || rounds.rounds > 100) throw new IllegalArgumentException("--rounds must be 1..100, got " + rounds.rounds);
        if (futures < 0 || futures > 1_000_000) throw new IllegalArgumentException("--futures must be 0..1000000, got " + futures);
        Knobs knobs = new Knobs(
                parkSpin == null ? OptionalLong.empty() : OptionalLong.of(duration(parkSpin, "--park-spin").toNanos()),
                marginUs == null ? OptionalLong.empty() : OptionalLong.of(marginUs),
                carriers.value(),
                parkSlice == null ? OptionalLong.empty() : OptionalLong.of(duration(parkSlice, "--park-slice").toNanos()),
                Optional.ofNullable(carrierTurns));
        Jitter j;
        try {
            j = Jitter.valueOf(jitter.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--jitter: \"" + jitter + "\" is not one of none, pollers, all");
        }
        DeviceTiming timing;
        try {
            timing = DeviceTiming.valueOf(device.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--device: \"" + device + "\" is not one of random, exact, timer");
        }
        return new WakeBench.Settings(chosen, lengths, warmup.value(Duration.ZERO), duration(duration, "--duration"), rounds.rounds,
                minWaits, futures, knobs, j, timing);
    }

    /** "100us", "1.5ms", "2s", "500ns", "0" → a duration. */
    static Duration duration(String text, String option) {
        return Durations.parse(text, option);
    }

    /** The progress bar: the share done, the time and the step; off a terminal, one line per step. */
    private static final class ProgressBar {
        final StatusLine line;
        private String lastStep = "";

        ProgressBar(StatusLine line) {
            this.line = line;
        }

        synchronized void at(int index, int total, String what, double fraction) {
            if (line.quiet()) return;
            double done = total == 0 ? 1 : Math.min(1, (index + fraction) / total);
            String step = String.format(Locale.ROOT, "%d/%d %s", Math.min(index + 1, total), total, what);
            if (!line.terminal()) {
                if (!step.equals(lastStep)) line.printf("gar bench: %3.0fs %s", line.seconds(), step);
                lastStep = step;
                return;
            }
            int width = 30, filled = (int) Math.round(done * width);
            line.redraw(String.format(Locale.ROOT, "[%s%s] %3.0f%% %3.0fs  %s", "#".repeat(filled), ".".repeat(width - filled),
                    done * 100, line.seconds(), step), false);
        }
    }
}
