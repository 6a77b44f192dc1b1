package dev.gpureactor.cli;

import dev.gpureactor.bench.blocking.BlockingBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code gar blocking}: the blocking benchmark ({@link BlockingBench}), the reactor's carriers beside the JDK's scheduler. */
@Command(name = "blocking", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Virtual threads blocked in a pipe read or a FIFO open, on the JDK's scheduler and on the reactor's carriers in one run:"
                + " how soon a task queued behind them starts, and the carriers during the blocking and after it."})
final class BlockingCommand implements Callable<Integer> {
    @Option(names = "--blockers", split = ",", description = "Blocked thread counts (default: 1,2,8,64,256).")
    List<Integer> blockers = List.of(1, 2, 8, 64, 256);

    @Option(names = "--after", description = "How long after the last level to count the carriers again, in seconds (default: 60).")
    int afterSeconds = 60;

    @Option(names = "--block", description = "How the threads block: PIPE (a child's stdout: the JDK compensates it) or FIFO"
            + " (the open(2) of a FIFO: the JDK does not; the reactor's carrier watch does) (default: PIPE).")
    BlockingBench.Block block = BlockingBench.Block.PIPE;

    @Option(names = "--patience", description = "How long the queued task may wait before it counts as starved, in ms (default: 5000).")
    int patienceMs = 5000;

    @Mixin
    OutputOptions.Report report;

    @Override
    public Integer call() throws Exception {
        for (int n : blockers) if (n < 1 || n > 4096) throw new IllegalArgumentException("--blockers: " + n + " is not in 1..4096");
        if (afterSeconds < 0) throw new IllegalArgumentException("--after: " + afterSeconds + " is negative");
        if (patienceMs < 1) throw new IllegalArgumentException("--patience: " + patienceMs + " is not positive");
        BlockingBench bench = new BlockingBench(blockers, Duration.ofSeconds(afterSeconds), Duration.ofMillis(patienceMs), block);
        BlockingBench.Result r = bench.run(report.quiet ? line -> { } : System.err::println);
        report.write(BlockingBench.table(r), () -> BlockingBench.json(r, machine()));
        return 0;
    }

    private static String machine() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo")))
                if (line.startsWith("model name")) return line.substring(line.indexOf(':') + 1).strip()
                        + ", " + Runtime.getRuntime().availableProcessors() + " cores";
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux
        }
        return System.getProperty("os.arch") + ", " + Runtime.getRuntime().availableProcessors() + " cores";
    }
}
