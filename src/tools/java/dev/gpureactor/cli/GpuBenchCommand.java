package dev.gpureactor.cli;

import dev.gpureactor.json.Json;
import dev.gpureactor.bench.gpu.GpuBench;
import dev.gpureactor.bench.gpu.Latency;
import dev.gpureactor.bench.gpu.RoundTrip;
import dev.gpureactor.bench.gpu.WakeRun;
import dev.gpureactor.bench.gpu.Waiter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code gar gpu-bench}: steps 3 (wake) and 4 (round trip) of the GPU run on the CUDA driver (docs/GPU.md). */
@Command(name = "gpu-bench", mixinStandardHelpOptions = true,
        description = {"Measure on the CUDA driver (gar.cuda.library, default libcuda.so.1): the store -> waiter-running latency"
                + " when the device writes the word (reactor with the hardware park, with the fallback, on the JDK scheduler;"
                + " cuStreamSynchronize; a cuStreamQuery loop), and the round trip through a parked virtual thread (RTT/2).",
                "On a stand-in driver the same code runs and every number is labelled stand-in.",
                "Exit status: 0 when every wait completed, 1 when one did not, 2 on bad options or no driver."})
final class GpuBenchCommand implements Callable<Integer> {
    @Option(names = "--step", split = ",", description = "wake, rtt or both (default: ${DEFAULT-VALUE}).", defaultValue = "wake,rtt")
    List<String> steps;

    @Option(names = "--waiters", split = ",", description = "Waiters of the wake step (default: all: reactor-hardware,"
            + " reactor-fallback, reactor-jdk, cuStreamSynchronize, cuStreamQuery-poll).")
    List<String> waiters;

    @Option(names = "--iterations", description = "Measured waits per waiter (default: ${DEFAULT-VALUE}).", defaultValue = "2000")
    int iterations;

    @Option(names = "--warmup", description = "Waits run first and not measured (default: ${DEFAULT-VALUE}).", defaultValue = "200")
    int warmup;

    @Option(names = "--delay-us", description = "The go word is written this long after the waiter is armed (default: ${DEFAULT-VALUE}).",
            defaultValue = "500")
    long delayUs;

    @Option(names = "--timeout-ms", description = "Bound on one wait; past it the waiter stops (default: ${DEFAULT-VALUE}).",
            defaultValue = "5000")
    long timeoutMs;

    @Mixin
    OutputOptions.JsonFlag json;

    /** A {@code --step} value; an unknown one names the option and what it accepts. */
    private static GpuBench.Step step(String text) {
        try {
            return GpuBench.Step.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--step: \"" + text + "\" is not one of "
                    + String.join(", ", java.util.Arrays.stream(GpuBench.Step.values()).map(v -> v.name().toLowerCase(Locale.ROOT)).toList()));
        }
    }

    @Override
    public Integer call() {
        List<GpuBench.Step> s = steps.stream().map(GpuBenchCommand::step).toList();
        List<Waiter> w = waiters == null ? List.of(Waiter.values()) : waiters.stream().map(Waiter::of).toList();
        GpuBench.Config config = new GpuBench.Config(s, w, warmup, iterations, delayUs * 1_000, timeoutMs * 1_000_000);
        PrintStream progress = json.progress();
        GpuBench.Report r = GpuBench.run(config, progress::println);
        if (json.json) System.out.println(Json.write(toMap(r)));
        else System.out.print(text(r));
        return r.complete() ? 0 : 1;
    }

    /** The report as the JSON object of docs/GPU.md; durations in nanoseconds. */
    static Map<String, Object> toMap(GpuBench.Report r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("measurement", "gpu-bench");
        m.put("label", r.standin() ? "stand-in" : "gpu");
        m.put("time", Instant.now().toString());
        m.put("device", r.device());
        m.put("hardware_park", r.hardwarePark());
        m.put("cores", r.cores());
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("steps", r.config().steps().stream().map(x -> x.name().toLowerCase(Locale.ROOT)).toList());
        c.put("warmup", r.config().warmup());
        c.put("iterations", r.config().iterations());
        c.put("delay_ns", r.config().delayNanos());
        c.put("timeout_ns", r.config().timeoutNanos());
        m.put("config", c);
        List<Object> wake = new ArrayList<>();
        for (WakeRun.Result w : r.wake()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("waiter", w.waiter().id());
            x.put("park", w.park());
            x.put("asked", w.asked());
            x.put("completed", w.completed());
            x.put("wake_ns", latency(w.wake()));
            x.put("device_turnaround_ns", latency(w.device()));
            x.put("early", w.early());
            x.put("error", w.error());
            wake.add(x);
        }
        m.put("wake", wake);
        List<Object> rtt = new ArrayList<>();
        for (RoundTrip.Result t : r.rtt()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("variant", t.variant());
            x.put("park", t.reactor());
            x.put("asked", t.asked());
            x.put("completed", t.completed());
            x.put("half_rtt_ns", latency(t.halfRtt()));
            x.put("error", t.error());
            rtt.add(x);
        }
        m.put("rtt", rtt);
        m.put("warnings", r.warnings().stream().map(Object::toString).toList());
        m.put("unsupported", r.unsupported());
        m.put("complete", r.complete());
        return m;
    }

    private static Map<String, Object> latency(Latency l) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("count", l.count());
        x.put("p50", l.p50());
        x.put("p99", l.p99());
        x.put("max", l.max());
        x.put("mean", l.mean());
        return x;
    }

    private static String text(GpuBench.Report r) {
        StringBuilder b = new StringBuilder();
        String label = r.standin() ? " [STAND-IN: not a GPU]" : "";
        b.append("device: ").append(r.device()).append('\n');
        b.append("hardware park: ").append(r.hardwarePark()).append(", cores: ").append(r.cores()).append('\n');
        if (!r.unsupported().isEmpty()) b.append("unsupported here: ").append(r.unsupported()).append('\n');
        if (!r.wake().isEmpty()) {
            b.append(String.format("%nstore -> waiter running (us)%s%n%-22s %9s %9s %9s %11s  %s%n", label,
                    "waiter", "p50", "p99", "max", "done/asked", "park"));
            for (WakeRun.Result w : r.wake()) {
                b.append(String.format("%-22s %9s %9s %9s %11s  %s%s%n", w.waiter().id(), us(w.wake().p50()), us(w.wake().p99()),
                        us(w.wake().max()), w.completed() + "/" + w.asked(), w.park(), w.error().isEmpty() ? "" : "  ERROR " + w.error()));
            }
        }
        if (!r.rtt().isEmpty()) {
            b.append(String.format("%nround trip through a parked virtual thread, RTT/2 (us)%s%n%-22s %9s %9s %9s %11s  %s%n", label,
                    "variant", "p50", "p99", "max", "done/asked", "park"));
            for (RoundTrip.Result t : r.rtt()) {
                b.append(String.format("%-22s %9s %9s %9s %11s  %s%s%n", t.variant(), us(t.halfRtt().p50()), us(t.halfRtt().p99()),
                        us(t.halfRtt().max()), t.completed() + "/" + t.asked(), t.reactor(), t.error().isEmpty() ? "" : "  ERROR " + t.error()));
            }
        }
        r.warnings().forEach(w -> b.append("warning: ").append(w).append('\n'));
        return b.toString();
    }

    private static String us(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1000.0);
    }
}
