package dev.gpureactor.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The quick comparison {@code gar bench} runs: every strategy at every wait length, one
 * {@link WakeRig} at a time (a warm-up, then a measuring window), then the many-futures run, then
 * the goals. Cells run wait length by wait length, so the strategies compared by a goal ran
 * minutes apart at most.
 */
public final class WakeBench {
    /** What to run. */
    public record Settings(List<Strategy> strategies, List<Duration> waits, Duration warmup, Duration measure, int minWaits,
                           int futures, Knobs knobs, Jitter jitter) {
        public Settings {
            strategies = List.copyOf(strategies);
            waits = List.copyOf(waits);
            Objects.requireNonNull(warmup, "warmup");
            Objects.requireNonNull(measure, "measure");
            Objects.requireNonNull(knobs, "knobs");
            Objects.requireNonNull(jitter, "jitter");
            if (strategies.isEmpty()) throw new IllegalArgumentException("no strategy to run");
            if (waits.isEmpty()) throw new IllegalArgumentException("no wait length to run");
            if (measure.isZero() || measure.isNegative()) throw new IllegalArgumentException("measure must be positive");
            if (futures < 0) throw new IllegalArgumentException("futures must be >= 0");
        }

        /** Seconds the wake cells take, roughly (the many-futures run comes on top). */
        public double estimatedSeconds() {
            return strategies.size() * waits.size() * (warmup.toMillis() + measure.toMillis() + 60) / 1000.0;
        }
    }

    /** Hears where the run is: cell {@code index} of {@code total}, and how far into it (0..1). */
    @FunctionalInterface
    public interface Progress {
        void at(int index, int total, String what, double fraction);
    }

    private WakeBench() {}

    public static BenchRun run(Settings s, Progress progress) throws InterruptedException {
        String date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        List<Cell> cells = new ArrayList<>();
        int total = s.strategies().size() * s.waits().size() + (s.futures() > 0 ? 1 : 0);
        int index = 0;
        for (Duration wait : s.waits()) {
            for (Strategy st : s.strategies()) {
                String what = st.label() + ", wait " + Goals.waitText(wait.toNanos());
                cells.add(cell(st, wait, s, (i, f) -> progress.at(i, total, what, f), index));
                index++;
            }
        }
        Optional<ManyResult> many = Optional.empty();
        if (s.futures() > 0) {
            int at = index;
            many = Optional.of(ManyFutures.run(s.futures(), s.knobs(), phase -> progress.at(at, total, phase, 0.5)));
            index++;
        }
        progress.at(total, total, "done", 1);
        return new BenchRun(date, machine(), jdk(), s.knobs(), s.jitter(), s.measure().toMillis() / 1000.0, cells, many,
                Goals.evaluate(cells, many));
    }

    private interface CellProgress {
        void at(int index, double fraction);
    }

    private static Cell cell(Strategy st, Duration wait, Settings s, CellProgress p, int index) throws InterruptedException {
        try (WakeRig rig = WakeRig.open(st, wait, s.knobs(), s.jitter())) {
            long total = s.warmup().toNanos() + s.measure().toNanos();
            long t0 = System.nanoTime();
            sleepWithProgress(t0, s.warmup().toNanos(), total, p, index);
            rig.startMeasuring();
            sleepWithProgress(t0, total, total, p, index);
            long missing = s.minWaits() - rig.measuredWaits();
            if (missing > 0) rig.awaitWaits(missing, wait.multipliedBy(missing * 4L).plusSeconds(10));
            return rig.stopMeasuring();
        }
    }

    private static void sleepWithProgress(long t0, long until, long total, CellProgress p, int index) throws InterruptedException {
        long left;
        while ((left = t0 + until - System.nanoTime()) > 0) {
            p.at(index, Math.min(1, (double) (System.nanoTime() - t0) / total));
            Thread.sleep(Math.max(1, Math.min(250, left / 1_000_000)));
        }
    }

    /** CPU model, cores and kernel, from /proc/cpuinfo where there is one. */
    public static String machine() {
        String model = System.getProperty("os.arch");
        try {
            Path info = Path.of("/proc/cpuinfo");
            if (Files.isReadable(info)) {
                model = Files.readAllLines(info).stream().filter(l -> l.startsWith("model name")).findFirst()
                        .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse(model);
            }
        } catch (IOException e) {
            // keep the architecture as the model
        }
        return model + ", " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.version");
    }

    public static String jdk() {
        return System.getProperty("java.vm.vendor", "?") + " " + Runtime.version();
    }
}
