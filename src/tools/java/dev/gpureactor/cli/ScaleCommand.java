package dev.gpureactor.cli;

import dev.gpureactor.bench.WakeBench;
import dev.gpureactor.bench.scale.ScaleBench;
import dev.gpureactor.bench.scale.ScaleRun;
import dev.gpureactor.bench.service.Durations;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code gar scale}: the scale benchmark ({@link ScaleBench}, docs/SCALE.md). This class parses options
 * (a {@code --quick} preset, explicit options winning), prints progress, and writes the table or JSON.
 */
@Command(name = "scale", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The scale benchmark (issue 19) on the simulated device: many lines x 8 busy slots, idle lines, one store"
                + " fanning out to many waiters, many waiters over 8 lines, and JFR pinning events; goals judged in the same run."})
final class ScaleCommand extends RunCommand<ScaleBench.Settings> {
    @Option(names = "--lines", split = ",", description = "Line counts of the many-lines measure (default: 1,2,4,8).")
    List<Integer> lines;

    @Option(names = "--waits", split = ",", description = "Steady wait lengths of the many-lines measure (default: 1ms,10ms).")
    List<String> waits;

    @Mixin
    RunOptions.Warmup warmup;

    @Mixin
    RunOptions.Window window;

    @Option(names = "--idle-lines", split = ",", description = "Idle line counts (default: 1,8).")
    List<Integer> idleLines;

    @Option(names = "--idle-window", description = "Each idle window; the issue's figure is over 60s, the default 10s bounds the run (default: 10s).")
    String idleWindow;

    @Option(names = "--fan-out", description = "Virtual threads one store completes (default: 1000).")
    Integer fanOut;

    @Option(names = "--fan-out-rounds", description = "Measured fan-out rounds, after 3 unmeasured (default: 50).")
    Integer fanOutRounds;

    @Option(names = "--waiters", split = ",", description = "Waiting virtual threads of the many-waiters measure (default: 10000,100000).")
    List<Integer> waiters;

    @Option(names = "--lines-per-parker", description = "Lines one parker thread watches at most (GpuReactor.Builder.linesPerParker;"
            + " default: the library's, by the park).")
    Integer linesPerParker;

    @Option(names = "--no-jfr", description = "Do not record jdk.VirtualThreadPinned with JFR.")
    boolean noJfr;

    @Mixin
    RunOptions.Quick quick;

    @Mixin
    OutputOptions.Report report;

    @Override
    int run(ScaleBench.Settings s, PrintWriter err) throws Exception {
        boolean quiet = report.quiet;
        long t0 = System.nanoTime();
        if (!quiet) err.printf(Locale.ROOT, "gar scale: about %.0f s plus set-up%n", s.estimatedSeconds());
        ScaleRun run = ScaleBench.run(s, what -> {
            if (!quiet) {
                err.printf(Locale.ROOT, "gar scale: %4.0fs %s%n", (System.nanoTime() - t0) / 1e9, what);
                err.flush();
            }
        }, WakeBench.machine(), WakeBench.jdk());
        report.write(run.table(), () -> Json.write(run.json()));
        return run.correct() ? 0 : 1;
    }

    @Override
    ScaleBench.Settings settings() {
        ScaleBench.Settings d = quick.quick ? ScaleBench.Settings.quick() : ScaleBench.Settings.defaults();
        // The engine reads 0 as "the library's default"; given on the command line, 0 is the library's error, as any value < 1.
        if (linesPerParker != null && linesPerParker < 1) {
            throw new ReactorException(ErrorCode.InvalidArgument, "--lines-per-parker", linesPerParker, ">= 1 (leave it out for the library's default)");
        }
        List<Duration> w = waits == null ? d.waits() : waits.stream().map(t -> Durations.parse(t, "--waits")).toList();
        return new ScaleBench.Settings(lines != null ? lines : d.lineCounts(), w,
                warmup.value(d.warmup()), window.value(d.window()),
                idleLines != null ? idleLines : d.idleLines(),
                idleWindow != null ? Durations.parse(idleWindow, "--idle-window") : d.idleWindow(),
                fanOut != null ? fanOut : d.fanOut(), fanOutRounds != null ? fanOutRounds : d.fanOutRounds(),
                waiters != null ? waiters : d.waiters(), !noJfr, linesPerParker != null ? linesPerParker : d.linesPerParker());
    }
}
