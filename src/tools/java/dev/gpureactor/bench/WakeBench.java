package dev.gpureactor.bench;

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
 * {@link WakeRig} at a time, then the many-futures run, then the goals.
 *
 * <p><b>Rounds.</b> On a shared machine the load moves on a scale of seconds, and the goals compare
 * strategies by ratio. So each cell's measuring time is split into {@code rounds} slices, and for
 * each wait length the strategies take turns slice by slice (the order rotated every round);
 * each slice opens a fresh rig, warms it up, measures, and its window is added to the cell's.
 * Load that comes and goes then falls on every strategy alike.
 */
public final class WakeBench {
    /** What to run. */
    public record Settings(List<Strategy> strategies, List<Duration> waits, Duration warmup, Duration measure, int rounds,
                           int minWaits, int futures, Knobs knobs, Jitter jitter, DeviceTiming device) {
        public Settings {
            strategies = List.copyOf(strategies);
            waits = List.copyOf(waits);
            Objects.requireNonNull(warmup, "warmup");
            Objects.requireNonNull(measure, "measure");
            Objects.requireNonNull(knobs, "knobs");
            Objects.requireNonNull(jitter, "jitter");
            Objects.requireNonNull(device, "device");
            if (strategies.isEmpty()) throw new IllegalArgumentException("no strategy to run");
            if (waits.isEmpty()) throw new IllegalArgumentException("no wait length to run");
            if (measure.isZero() || measure.isNegative()) throw new IllegalArgumentException("--duration (each cell's measured window) must be positive, as 1s; got " + measure);
            if (futures < 0) throw new IllegalArgumentException("futures must be >= 0");
            if (rounds < 1) throw new IllegalArgumentException("rounds must be >= 1");
        }

        /** Seconds the wake cells take, roughly (the many-futures run comes on top). */
        public double estimatedSeconds() {
            return strategies.size() * waits.size() * (rounds * (sliceWarmup().toMillis() + 30) + measure.toMillis()) / 1000.0;
        }

        /** Warm-up before each slice: the whole warm-up in the first round, a third of it (at least 100 ms) after. */
        Duration sliceWarmup() {
            Duration later = warmup.dividedBy(3);
            return later.compareTo(Duration.ofMillis(100)) < 0 ? Duration.ofMillis(Math.min(100, warmup.toMillis())) : later;
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
        String loadAtStart = loadAverage();
        List<Cell> cells = new ArrayList<>();
        int n = s.strategies().size();
        int total = n * s.waits().size() * s.rounds() + (s.futures() > 0 ? 1 : 0);
        int index = 0;
        for (Duration wait : s.waits()) {
            Window[] sums = new Window[n];
            Duration slice = s.measure().dividedBy(s.rounds());
            for (int round = 0; round < s.rounds(); round++) {
                for (int k = 0; k < n; k++) {
                    int which = (k + round) % n; // rotate, so no strategy always follows the same one
                    Strategy st = s.strategies().get(which);
                    String what = st.label() + ", wait " + Goals.waitText(wait.toNanos()) + ", round " + (round + 1) + "/" + s.rounds();
                    int at = index;
                    Duration warm = round == 0 ? s.warmup() : s.sliceWarmup();
                    long minWaits = (s.minWaits() + s.rounds() - 1) / s.rounds();
                    Window w = slice(st, wait, s, warm, slice, minWaits, f -> progress.at(at, total, what, f));
                    sums[which] = sums[which] == null ? w : sums[which].plus(w);
                    index++;
                }
            }
            for (Window w : sums) cells.add(w.toCell());
        }
        Optional<ManyResult> many = Optional.empty();
        if (s.futures() > 0) {
            int at = index;
            many = Optional.of(ManyFutures.run(s.futures(), s.knobs(), phase -> progress.at(at, total, phase, 0.5)));
            index++;
        }
        progress.at(total, total, "done", 1);
        String load = loadAtStart.isEmpty() ? "unknown" : loadAtStart + " at start, " + loadAverage() + " at end";
        return new BenchRun(date, machine(), jdk(), load, s.knobs(), s.jitter(), s.device(), s.measure().toMillis() / 1000.0, cells, many,
                Goals.evaluate(cells, many));
    }

    private interface SliceProgress {
        void at(double fraction);
    }

    private static Window slice(Strategy st, Duration wait, Settings s, Duration warmup, Duration measure, long minWaits,
                                SliceProgress p) throws InterruptedException {
        try (WakeRig rig = WakeRig.open(st, wait, s.knobs(), s.jitter(), s.device())) {
            long total = warmup.toNanos() + measure.toNanos();
            long t0 = System.nanoTime();
            sleepWithProgress(t0, warmup.toNanos(), total, p);
            rig.startMeasuring();
            sleepWithProgress(t0, total, total, p);
            long missing = minWaits - rig.measuredWaits();
            if (missing > 0) rig.awaitWaits(missing, wait.multipliedBy(missing * 4L).plusSeconds(10));
            return rig.stopWindow();
        }
    }

    private static void sleepWithProgress(long t0, long until, long total, SliceProgress p) throws InterruptedException {
        long left;
        while ((left = t0 + until - System.nanoTime()) > 0) {
            p.at(Math.min(1, (double) (System.nanoTime() - t0) / total));
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

    /** The 1, 5 and 15-minute load averages from /proc/loadavg, or "" where there is none. */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : "";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    public static String jdk() {
        return System.getProperty("java.vm.vendor", "?") + " " + Runtime.version();
    }
}
