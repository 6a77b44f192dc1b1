package dev.gpureactor.cli;

import dev.gpureactor.demo.DemoDevice;
import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.backend.hip.HipRuntime;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import dev.gpureactor.host.uring.UringHost;
import dev.gpureactor.loom.GpuExecutorService;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import dev.gpureactor.loom.RunStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The FILL demo on virtual threads: three waits on slots completing at 2, 4 and 6 ms,
 * a fourth virtual thread doing CPU work in slices meanwhile, and what each wait cost; then one slow
 * wait (50 ms), the kind a default JFR recording keeps. The device
 * is a {@link DemoDevice}: the simulated one by default, or the CUDA / HIP binding
 * ({@code dev.gpureactor.demo.DriverDemoDevice}: a host function holds each stream for the work, no kernel runs).
 */
@Command(name = "demo", mixinStandardHelpOptions = true, defaultValueProvider = DemoCommand.Defaults.class,
        description = "Await GPU work (simulated unless --backend says cuda or hip) from virtual threads while CPU work fills the wait.")
final class DemoCommand implements Callable<Integer> {
    @Mixin
    ReactorOptions.Plan plan;

    /** The demo's plan: the recommended flag wait with a deadline sleep in front, so the run shows both. */
    static final String DEFAULT_PLAN = "flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8";

    /** Gives the shared {@code --plan} the demo's default (the help shows it as {@code ${DEFAULT-VALUE}}). */
    static final class Defaults extends OptionDefaults {
        Defaults() { super(Map.of("--plan", DEFAULT_PLAN)); }
    }

    @Option(names = "--kind", description = "Executor kind: naive, gpu-reactor, io-uring (default: ${DEFAULT-VALUE}).",
            defaultValue = "gpu-reactor")
    String kind;

    @Option(names = "--backend", description = "Device: sim (default), cuda (libcuda.so.1, or -Dgar.cuda.library=PATH), hip (libamdhip64.so, or -Dgar.hip.library=PATH).",
            defaultValue = "sim")
    String backend;

    @Option(names = "--waiters", description = "Extra waiting futures to run after the demo, 0..100000 (default: ${DEFAULT-VALUE}).",
            defaultValue = "0")
    int waiters;

    @Mixin
    ReactorOptions.Carriers carriers;

    @Option(names = "--jfr", paramLabel = "FILE", converter = OutputOptions.OutputPath.class,
            description = "Write a JFR recording of the run to FILE (the JDK's default events and every dev.gpureactor event, every wait included, not only those over the 20 ms default threshold); read it with: jfr print --events 'dev.gpureactor.*' FILE")
    Path jfr;

    /**
     * The library's JFR events (declared package-private in {@code dev.gpureactor.loom}; named here as
     * a recording names them). docs/JFR.md describes each and its default.
     */
    static final List<String> JFR_EVENTS = List.of("dev.gpureactor.Wait", "dev.gpureactor.ParkerLate",
            "dev.gpureactor.HostingRelief", "dev.gpureactor.PortFailure", "dev.gpureactor.CarrierBacklog");

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (waiters < 0 || waiters > 100_000) {
            err.println("gar demo: --waiters must be 0..100000, got " + waiters);
            err.flush();
            return 2;
        }
        WaitPlan p = plan.value().orElseThrow();
        Consumer<Warning> print = w -> System.out.println("warning: " + w.message());
        GpuReactor.Builder b = UringHost.builder().kind(ExecutorKind.parse(kind)).plan(p).warnings(print);
        carriers.value().ifPresent(b::carriers);
        DemoDevice device;
        try {
            device = DemoDevice.open(backend, print);
        } catch (ReactorException e) {
            err.println("gar demo: --backend " + backend + " cannot run: " + e.getMessage() + hint(backend, e));
            err.flush();
            return 2;
        }
        Recording recording = jfr == null ? null : startRecording();
        try (device; GpuReactor reactor = b.build(); GpuExecutorService exec = reactor.newExecutor()) {
            System.out.printf("gar demo: executor %s, scheduler %s, plan %s%n", reactor.kindResolution().label(),
                    reactor.schedulerResolution().label(), p.label());
            System.out.println(machine());
            device.description().forEach(System.out::println);
            runFill(reactor, device, exec);
            if (waiters > 0) runMany(reactor, device, exec, waiters);
        } finally {
            if (recording != null) {
                recording.stop();
                recording.dump(jfr);
                recording.close();
                System.out.println("JFR recording: " + jfr + "  (jfr print --events 'dev.gpureactor.*' " + jfr + ")");
            }
        }
        return 0;
    }

    /** A recording of the JDK's default events and every event of the library's, every wait included, started now. */
    private static Recording startRecording() throws IOException, ParseException {
        Recording r = new Recording(Configuration.getConfiguration("default"));
        r.setName("gar demo");
        for (String e : JFR_EVENTS) r.enable(e).withThreshold(Duration.ZERO);
        r.start();
        return r;
    }

    /**
     * The machine the numbers come from, and (one line) why its wakes are not docs/BENCHMARKS.md's:
     * there the parker's core is idle, here the FILL round's CPU thread shares the cores with it.
     */
    static String machine() {
        int cores = Runtime.getRuntime().availableProcessors();
        return "machine: " + cpuModel() + " (" + System.getProperty("os.arch") + "), " + cores + " cores, "
                + System.getProperty("java.vm.name") + " " + Runtime.version() + "\n"
                + "  wakes below run beside the round's CPU-bound virtual thread, which shares these " + cores
                + " cores with the parker; docs/BENCHMARKS.md measures wakes with the cores otherwise idle, so expect later ones here";
    }

    /** The CPU's model name (Linux: /proc/cpuinfo), or "unknown CPU". */
    private static String cpuModel() {
        try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name") || l.startsWith("Model"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("unknown CPU");
        } catch (IOException | UncheckedIOException e) {
            return "unknown CPU";
        }
    }

    private static String hint(String backend, ReactorException e) {
        if (e.code() == ErrorCode.NativeUnavailable) {
            boolean cuda = backend.equals("cuda");
            String property = cuda ? CudaDriver.LIBRARY_PROPERTY : HipRuntime.LIBRARY_PROPERTY;
            return "\n  the library comes from -D" + property + " (default " + (cuda ? CudaDriver.DEFAULT_LIBRARY : HipRuntime.DEFAULT_LIBRARY)
                    + "); to try the stand-in driver: GAR_JAVA_OPTS=-D" + property + "=target/native/"
                    + (cuda ? "libcuda-standin.so" : "libamdhip64-standin.so") + " ./gar demo --backend " + backend
                    + " (docs/" + (cuda ? "CUDA" : "HIP") + ".md)";
        }
        if (e.code() == ErrorCode.NoStreamMemOps) {
            return "\n  the demo awaits the word the stream stores, which needs stream memory operations";
        }
        return "";
    }

    /**
     * Unprinted rounds before the printed one, for the JIT and the estimator: with 5, the printed
     * round still ran beside C2 compiling on these 2-core machines and showed wakes 1-4 ms late.
     */
    static final int WARM_UP_ROUNDS = 40;

    private static void runFill(GpuReactor reactor, DemoDevice device, GpuExecutorService exec) throws Exception {
        List<DemoDevice.Stream> streams = device.streams(3);
        for (int round = 0; round < WARM_UP_ROUNDS; round++) fillRound(reactor, device, streams, exec, false);
        fillRound(reactor, device, streams, exec, true);
        slowWait(reactor, streams.getFirst(), exec);
        for (Warning w : reactor.warnings()) System.out.println("(warning kept: " + w.code() + ")");
    }

    /**
     * The device work of {@link #slowWait}: well past the JFR wait event's default threshold (20 ms),
     * so a default recording of the demo ({@code -XX:StartFlightRecording}) holds this wait even when
     * the await starts a few milliseconds after the work.
     */
    static final Duration SLOW_WORK = Duration.ofMillis(50);

    /** One wait as long as a slow kernel: the one a default JFR recording keeps (docs/JFR.md). */
    private static void slowWait(GpuReactor reactor, DemoDevice.Stream stream, GpuExecutorService exec) throws Exception {
        long t0 = System.nanoTime();
        DemoDevice.Signal sig = stream.signal(SLOW_WORK, 7);
        IntSupplier payload = sig.payload();
        GpuFuture<Integer> f = reactor.await(sig.descriptor(), sig.port(), payload::getAsInt);
        int v = exec.submit(() -> f.join()).get(30, TimeUnit.SECONDS);
        System.out.printf(Locale.ROOT, "a slow wait: %d ms of device work, done after %.2f ms, read back %d, %s"
                + " (over 20 ms: a default JFR recording holds it as a dev.gpureactor.Wait event)%n",
                SLOW_WORK.toMillis(), (System.nanoTime() - t0) / 1e6, v, f.state());
    }

    private static void fillRound(GpuReactor reactor, DemoDevice device, List<DemoDevice.Stream> streams,
                                  GpuExecutorService exec, boolean print) throws Exception {
        String doneLabel = device.workDoneLabel();
        RunStats before = reactor.stats();
        long t0 = System.nanoTime();
        List<Future<String>> waits = new ArrayList<>();
        for (int i = 0; i < streams.size(); i++) {
            int ms = 2 * (i + 1);
            DemoDevice.Signal sig = streams.get(i).signal(Duration.ofMillis(ms), 100 + i);
            IntSupplier payload = sig.payload();
            GpuFuture<Integer> f = reactor.await(sig.descriptor(), sig.port(), payload::getAsInt);
            int slot = sig.descriptor().slot().index();
            waits.add(exec.submit(() -> {
                try {
                    int v = f.join();
                    long woke = System.nanoTime();
                    long storedAt = sig.workDone().getAsLong();
                    return String.format(Locale.ROOT, "slot %d done after %5.2f ms (%s %5.2f ms, woke %6.1f us later), read back %d, %s",
                            slot, (woke - t0) / 1e6, doneLabel, (storedAt - t0) / 1e6, (woke - storedAt) / 1e3, v, f.state());
                } catch (ReactorException e) {
                    return "slot " + slot + " failed: " + e.getMessage();
                }
            }));
        }
        AtomicLong slices = new AtomicLong();
        Future<?> cpu = exec.submit(() -> {
            long end = t0 + TimeUnit.MILLISECONDS.toNanos(6);
            while (System.nanoTime() < end) {
                long sliceEnd = System.nanoTime() + 10_000;
                double x = 0;
                while (System.nanoTime() < sliceEnd) x += Math.sqrt(x + 1);
                if (x < 0) System.out.print("");
                slices.incrementAndGet();
                Thread.yield(); // let a woken waiter run between slices
            }
        });
        List<String> lines = new ArrayList<>();
        for (Future<String> w : waits) lines.add(w.get(30, TimeUnit.SECONDS));
        cpu.get(30, TimeUnit.SECONDS);
        long elapsed = System.nanoTime() - t0;
        if (!print) return;
        lines.forEach(l -> System.out.println("  " + l));
        RunStats s = reactor.stats();
        System.out.printf(Locale.ROOT, "  a fourth virtual thread ran %d CPU slices of 10 us while the waits were pending%n", slices.get());
        // Busy is estimated (one task in 8 is timed, counted 8 times) and idle is the carriers' time less it, so over
        // a round of a few milliseconds the difference of two readings can overshoot: shown as an estimate, within 0..100 %.
        long busy = s.busyNanos() - before.busyNanos(), idle = Math.max(0, s.idleNanos() - before.idleNanos());
        System.out.printf(Locale.ROOT, "run stats: polls %d, woke %d, slept %d, parked %d, queried %d; carriers idle ~%.2f ms, busy ~%.2f ms%n",
                s.polls() - before.polls(), s.woke() - before.woke(), s.slept() - before.slept(), s.parked() - before.parked(),
                s.queried() - before.queried(), idle / 1e6, busy / 1e6);
        System.out.printf(Locale.ROOT, "filled: ~%.0f%% of the carriers' time ran work during the %.2f ms round (estimated: one task in 8 is timed)%n",
                busy + idle == 0 ? 0.0 : Math.min(100.0, 100.0 * busy / (busy + idle)), elapsed / 1e6);
    }

    private static void runMany(GpuReactor reactor, DemoDevice device, GpuExecutorService exec, int n) throws Exception {
        System.out.printf("%d waiting futures across %d streams ...%n", n, Math.min(32, n));
        List<DemoDevice.Stream> streams = device.streams(Math.min(32, n));
        long t0 = System.nanoTime();
        List<Future<?>> joins = new ArrayList<>(n);
        AtomicLong done = new AtomicLong();
        for (int i = 0; i < n; i++) {
            DemoDevice.Signal sig = streams.get(i % streams.size()).signal(i < streams.size() ? Duration.ofMillis(20) : Duration.ZERO);
            GpuFuture<Void> f = reactor.await(sig.descriptor(), sig.port());
            joins.add(exec.submit(() -> {
                f.join();
                done.incrementAndGet();
            }));
        }
        for (int i = 0; i < joins.size(); i++) {
            joins.get(i).get(60, TimeUnit.SECONDS);
            if ((i + 1) % 10_000 == 0 || i + 1 == n) System.out.printf("\r  joined %d / %d", done.get(), n);
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "%n  all %d joined in %.2f s (%.0f completions/s); registrations left: %d%n",
                n, secs, n / secs, reactor.registrations());
    }
}
