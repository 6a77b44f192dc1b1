package dev.gpureactor.bench.gpu;

import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;
import dev.gpureactor.loom.GpuReactor;
import dev.gpureactor.park.WordWait;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * {@code gar gpu-bench}: steps 3 and 4 of the GPU run (docs/GPU.md) on the CUDA driver named by
 * {@code gar.cuda.library}, on the calling thread (which gets device 0's primary context as its
 * current context for the run). The same code runs on the stand-in driver; {@link Report#standin()}
 * says so.
 */
public final class GpuBench {
    private GpuBench() {}

    /** Which measurements to run. */
    public enum Step { WAKE, RTT }

    /**
     * What to run.
     *
     * @param steps          the measurements, in order
     * @param waiters        the waiters of {@link Step#WAKE}
     * @param warmup         waits (or round trips) run before measuring, per waiter
     * @param iterations     measured waits (or round trips) per waiter
     * @param delayNanos     how long after the waiter is armed the host writes the go word ({@link Step#WAKE})
     * @param timeoutNanos   the bound on one wait (or one round trip); a wait past it stops that waiter
     */
    public record Config(List<Step> steps, List<Waiter> waiters, int warmup, int iterations, long delayNanos,
                         long timeoutNanos) {
        public Config {
            steps = List.copyOf(steps);
            waiters = List.copyOf(waiters);
            // Each value named with what it was given (the record's fields are not set yet in here).
            if (warmup < 0) throw new ReactorException(ErrorCode.InvalidArgument, "warmup", warmup, ">= 0");
            if (iterations < 1) throw new ReactorException(ErrorCode.InvalidArgument, "iterations", iterations, ">= 1");
            if (delayNanos < 0) throw new ReactorException(ErrorCode.InvalidArgument, "delay", delayNanos + " ns", ">= 0");
            if (timeoutNanos < 1) throw new ReactorException(ErrorCode.InvalidArgument, "timeout", timeoutNanos + " ns", "> 0");
        }

        public static Config defaults() {
            return new Config(List.of(Step.WAKE, Step.RTT), List.of(Waiter.values()), 200, 2_000, 500_000, 5_000_000_000L);
        }
    }

    /**
     * What was measured.
     *
     * @param device      the driver and device, and their stream-memory-ops reading
     * @param standin     whether the driver is a stand-in (its numbers say nothing about a GPU)
     * @param hardwarePark the probe's answer: the hardware word wait, or why there is none
     * @param cores       the host's cores as the JVM sees them
     * @param config      what was asked
     * @param wake        step 3, one result per waiter (empty when not asked)
     * @param rtt         step 4, one result per variant (empty when not asked)
     * @param warnings    coded warnings of the line and the reactors
     * @param unsupported the coded error of a device that cannot store into a line (then step 3 did not
     *                    run and step 4 is the {@link QueryRoundTrip}), or empty
     */
    public record Report(String device, boolean standin, String hardwarePark, int cores, Config config,
                         List<WakeRun.Result> wake, List<RoundTrip.Result> rtt, List<Warning> warnings, String unsupported) {
        /** Whether every asked wait and round trip completed, with no error. */
        public boolean complete() {
            return wake.stream().allMatch(r -> r.error().isEmpty() && r.completed() == r.asked())
                    && rtt.stream().allMatch(r -> r.error().isEmpty() && r.completed() == r.asked());
        }
    }

    /**
     * Runs {@code config} on a fresh {@link GpuRig}; progress lines go to {@code progress}. A device
     * that cannot store into a line ({@link #unsupported}) runs the {@link QueryRoundTrip} for step 4
     * and nothing for step 3, and the report says why.
     */
    public static Report run(Config config, Consumer<String> progress) {
        Objects.requireNonNull(config, "config");
        WordWait.Probe probe = WordWait.probe();
        String park = probe.available() ? probe.wordWait().get().describe() : "none: " + probe.note();
        List<Warning> warnings = new CopyOnWriteArrayList<>(); // reactors report from their parker threads
        List<WakeRun.Result> wake = List.of();
        List<RoundTrip.Result> rtt = new ArrayList<>();
        String device;
        boolean standin;
        CudaDriver cuda = CudaDriver.load();
        GpuRig rig;
        try {
            rig = GpuRig.open(cuda);
        } catch (ReactorException e) {
            if (!unsupported(e)) throw e;
            standin = cuda.library().contains("standin");
            device = cuda.library() + ": cannot store into a line: " + e.getMessage();
            progress.accept("unsupported here: " + e.getMessage() + "; step 4 runs the query plan, step 3 does not run");
            if (config.steps().contains(Step.RTT)) {
                rtt.add(QueryRoundTrip.run(cuda, config.warmup(), config.iterations(), config.timeoutNanos(), progress));
            }
            return new Report(device, standin, park, Runtime.getRuntime().availableProcessors(), config, wake, List.copyOf(rtt),
                    List.copyOf(warnings), e.getMessage());
        }
        try {
            device = rig.description();
            standin = rig.isStandin();
            progress.accept((standin ? "STAND-IN driver (numbers say nothing about a GPU): " : "device: ") + device);
            for (Step step : config.steps()) {
                switch (step) {
                    case WAKE -> wake = WakeRun.run(rig, config.waiters(), config.warmup(), config.iterations(),
                            config.delayNanos(), config.timeoutNanos(), progress);
                    case RTT -> {
                        try (GpuReactor hw = GpuReactor.builder().warnings(warnings::add).build()) {
                            rtt.add(RoundTrip.run(rig, "reactor-hardware", hw, config.warmup(), config.iterations(),
                                    config.timeoutNanos(), progress));
                        }
                        try (GpuReactor fb = GpuReactor.builder().hardwarePark(false).warnings(warnings::add).build()) {
                            rtt.add(RoundTrip.run(rig, "reactor-fallback", fb, config.warmup(), config.iterations(),
                                    config.timeoutNanos(), progress));
                        }
                    }
                }
            }
        } finally {
            rig.close();
            warnings.addAll(rig.warnings());
        }
        return new Report(device, standin, park, Runtime.getRuntime().availableProcessors(), config, wake, List.copyOf(rtt),
                List.copyOf(warnings), "");
    }

    /**
     * Whether {@code e}, from opening the rig on a driver that loaded, says the device cannot do what
     * a line needs, rather than that something is broken: no stream memory operations ({@code
     * NoStreamMemOps}), an entry point the library lacks ({@code NativeUnavailable}), or a call the
     * driver refused ({@code Backend}, such as mapped host memory under a GPU proxy).
     */
    public static boolean unsupported(ReactorException e) {
        return switch (e.code()) {
            case NoStreamMemOps, NativeUnavailable, Backend -> true;
            default -> false;
        };
    }
}
