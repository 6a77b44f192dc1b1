package dev.gpureactor.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Wake latency and waiting CPU of gpu-reactor against the usual ways to wait, side by side in one
 * JMH run: one trial per (strategy, wait length), each in its own fork.
 *
 * <p>The measuring is {@link WakeRig}'s, the same code {@code gar bench} runs: a simulated device
 * stores a sequence number with release at a recorded {@code nanoTime}, {@code wait} after the
 * wait started; the latency is the waiter running again minus that time, kept in an HdrHistogram;
 * the waiting CPU is the CPU time of every platform thread but the device's and JMH's, per second.
 * JMH is the harness: forks, warm-up, iterations. Its primary score is the mean wait cycle (wait,
 * wake, re-arm), which is only a sanity check; the results are the secondary metrics
 * {@code p50Us}, {@code p99Us}, {@code p999Us} and {@code cpuCores} (one measuring iteration, so
 * each is that iteration's value), and a {@code WAKE} line per trial printed at tear-down (it shows
 * the last iteration's window).
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
 *      -jar target/jmh/benchmarks.jar WakeLatencyBench
 * </pre>
 *
 * <p>The {@code cpu-notify} baseline is a CPU agent notifying a platform thread in
 * {@code Object.wait}: a GPU's store wakes nothing, so the real blocking-sync driver path adds the
 * device interrupt's latency on top.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 1, time = 6)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED"})
@Threads(1)
@State(Scope.Benchmark)
public class WakeLatencyBench {
    /** Waits per benchmark invocation: the harness thread is woken once per batch, not per wait. */
    static final int BATCH = 10;

    @Param({"reactor", "reactor-handoff", "reactor-jdk", "busy-spin", "park-poll", "sleep-poll", "cf-watcher", "cpu-notify"})
    public String strategy;

    @Param({"100", "1000", "10000"})
    public long waitUs;

    /** Which strategies' waits are jittered (see {@link Jitter}): none, pollers, all. */
    @Param({"pollers"})
    public String jitter;

    /** How the simulated device times its stores (see {@link DeviceTiming}): random, exact, timer. */
    @Param({"random"})
    public String device;

    WakeRig rig;
    Cell last;

    @Setup(Level.Trial)
    public void open() {
        rig = WakeRig.open(Strategy.of(strategy), Duration.ofNanos(waitUs * 1000), Knobs.DEFAULTS,
                Jitter.valueOf(jitter.toUpperCase(Locale.ROOT)), DeviceTiming.valueOf(device.toUpperCase(Locale.ROOT)));
    }

    @TearDown(Level.Trial)
    public void close() {
        if (rig != null) rig.close();
        if (last != null) {
            System.out.printf(Locale.ROOT, "%nWAKE %-12s wait %6d us: %6d waits  p50 %9.2f us  p99 %9.2f us  p99.9 %9.2f us"
                    + "  cpu %.3f cores  %s %s%n", strategy, waitUs, last.waits(), last.p50Micros(), last.p99Micros(),
                    last.p999Micros(), last.cpuCores(), byThread(last), last.note());
        }
    }

    private static String byThread(Cell c) {
        StringBuilder b = new StringBuilder();
        c.cpuByThreads().forEach((k, v) -> {
            if (v >= 0.005) b.append(b.isEmpty() ? "(" : ", ").append(k).append(String.format(Locale.ROOT, " %.2f", v));
        });
        return b.isEmpty() ? "" : b.append(')').toString();
    }

    /** The secondary metrics: read at the end of each iteration, from the window opened at its start. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Metrics {
        private WakeLatencyBench bench;
        private Cell cell;

        @Setup(Level.Iteration)
        public void begin(WakeLatencyBench b) {
            bench = b;
            cell = null;
            b.rig.startMeasuring();
        }

        /** JMH tears states down before it reads the counters: close the window here, while the rig still runs. */
        @TearDown(Level.Iteration)
        public void end() {
            cell();
        }

        private Cell cell() {
            if (cell == null) {
                cell = bench.rig.stopMeasuring();
                bench.last = cell;
            }
            return cell;
        }

        public double p50Us() { return cell().p50Micros(); }

        public double p99Us() { return cell().p99Micros(); }

        public double p999Us() { return cell().p999Micros(); }

        public double cpuCores() { return cell().cpuCores(); }

        public long waits() { return cell().waits(); }
    }

    /** Lets {@link #BATCH} waits happen; the waiting is the rig's, on its own threads. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void waits(Metrics m) throws InterruptedException {
        rig.awaitWaits(BATCH, Duration.ofSeconds(60));
    }
}
