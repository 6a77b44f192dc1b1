package dev.gpureactor.bench.scale;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.bench.Knobs;
import dev.gpureactor.bench.ManyFutures;
import dev.gpureactor.bench.ManyResult;
import dev.gpureactor.bench.service.OsThreads;
import dev.gpureactor.bench.service.ThreadCpu;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Slot;
import dev.gpureactor.loom.GpuReactor;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/*
 * Implementation overview. Each measure opens its own SimDevice and a reactor with the default
 * settings, so no measure inherits another's parkers or learned points. Waiting CPU is the process's
 * CPU time less that of the simulated streams' threads ("gar-sim-*", the device) over the window;
 * it includes the parkers, the carriers (the virtual threads that launch and await the work), the
 * JDK's threads, and JIT and GC. Parker CPU is the thread CPU of "gar-parker*" threads (hosted
 * guests included) and, beside it, the reactor's own RunStats.parkerCpuNanos. A wake is timed from
 * a zero-length kernel queued just before the store (SimStream.compute(ZERO, body), the stamp that
 * bench.service uses) to the awaiting virtual thread running again. JFR records
 * jdk.VirtualThreadPinned (threshold 0) over the whole run.
 */

/** {@code gar scale}: many lines, idle lines, fan-out, many waiters, pinning; see the package. */
public final class ScaleBench {
    private static final Duration GUARD = Duration.ofSeconds(120);
    private static final Duration IDLE_SETTLE = Duration.ofSeconds(1);
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private ScaleBench() {}

    /**
     * What to run.
     *
     * @param lineCounts   lines of the many-lines measure, eight busy slots each
     * @param waits        steady wait lengths of the many-lines measure
     * @param warmup       unmeasured time before each many-lines window
     * @param window       each many-lines window
     * @param idleLines    idle line counts
     * @param idleWindow   each idle window (the issue asks 60 s; 10 s by default to bound the run)
     * @param fanOut       virtual threads that one store completes
     * @param fanOutRounds measured fan-out repeats (after three unmeasured ones)
     * @param waiters      waiting virtual thread counts of the many-waiters measure, over eight lines
     * @param jfr          record jdk.VirtualThreadPinned over the run
     * @param linesPerParker the reactors' {@link GpuReactor.Builder#linesPerParker}; 0 for the library's default
     */
    public record Settings(List<Integer> lineCounts, List<Duration> waits, Duration warmup, Duration window, List<Integer> idleLines,
                           Duration idleWindow, int fanOut, int fanOutRounds, List<Integer> waiters, boolean jfr, int linesPerParker) {
        public Settings {
            lineCounts = List.copyOf(lineCounts);
            waits = List.copyOf(waits);
            idleLines = List.copyOf(idleLines);
            waiters = List.copyOf(waiters);
            // Each value named with what it was given, as its option spells it.
            for (int n : lineCounts) atLeast("lines", n, 1);
            for (int n : idleLines) atLeast("idle-lines", n, 1);
            for (int n : waiters) atLeast("waiters", n, 1);
            atLeast("fan-out", fanOut, 1);
            atLeast("fan-out-rounds", fanOutRounds, 1);
            atLeast("lines-per-parker", linesPerParker, 0);
            for (Duration d : waits) if (d.isNegative()) throw new ReactorException(ErrorCode.InvalidArgument, "waits", d, ">= 0");
            if (warmup.isNegative()) throw new ReactorException(ErrorCode.InvalidArgument, "warmup", warmup, ">= 0");
            if (!window.isPositive()) throw new ReactorException(ErrorCode.InvalidArgument, "window", window, "> 0");
            if (!idleWindow.isPositive()) throw new ReactorException(ErrorCode.InvalidArgument, "idle-window", idleWindow, "> 0");
        }

        private static void atLeast(String option, int value, int least) {
            if (value < least) throw new ReactorException(ErrorCode.InvalidArgument, option, value, ">= " + least);
        }

        public static Settings defaults() {
            return new Settings(List.of(1, 2, 4, 8), List.of(Duration.ofMillis(1), Duration.ofMillis(10)), Duration.ofSeconds(1),
                    Duration.ofSeconds(3), List.of(1, 8), Duration.ofSeconds(10), 1000, 50, List.of(10_000, 100_000), true, 0);
        }

        public static Settings quick() {
            return new Settings(List.of(1, 2), List.of(Duration.ofMillis(1)), Duration.ofMillis(200), Duration.ofMillis(500),
                    List.of(1, 8), Duration.ofMillis(500), 1000, 5, List.of(10_000), true, 0);
        }

        /** Seconds of measuring and settling, without set-up and the many-waiters phases' GCs. */
        public double estimatedSeconds() {
            double lines = lineCounts.size() * waits.size() * (warmup.toNanos() + window.toNanos()) / 1e9;
            double idle = idleLines.size() * (IDLE_SETTLE.toNanos() + idleWindow.toNanos()) / 1e9;
            return lines + idle + waiters.size() * 5;
        }
    }

    /** Runs every measure; {@code progress} hears each one's name. */
    public static ScaleRun run(Settings s, Consumer<String> progress, String machine, String jdk) throws Exception {
        // One short unrecorded pass first: eight virtual threads that load and link the harness's classes
        // and call sites at the same instant pin while one loads them (the JDK's class loading is native
        // frames), which is first use, not waiting; the recording counts what the measured run pins.
        if (s.jfr()) lines(1, Duration.ofMillis(1), Duration.ZERO, Duration.ofMillis(100), s.linesPerParker());
        Recording jfr = s.jfr() ? pinnedRecording() : null;
        String date = java.time.Instant.now().toString();
        List<ScaleRun.LinesCell> lines = new ArrayList<>();
        for (Duration wait : s.waits()) {
            for (int n : s.lineCounts()) {
                progress.accept(n + " lines x 8 busy slots, " + ScaleRun.duration(wait) + " waits");
                lines.add(lines(n, wait, s.warmup(), s.window(), s.linesPerParker()));
            }
        }
        List<ScaleRun.IdleCell> idle = new ArrayList<>();
        for (int n : s.idleLines()) {
            progress.accept(n + " idle lines");
            idle.add(idle(n, s.idleWindow(), s.linesPerParker()));
        }
        progress.accept("fan-out: one store, " + s.fanOut() + " waiters");
        ScaleRun.FanOut fan = fanOut(s.fanOut(), s.fanOutRounds(), s.linesPerParker());
        List<ManyResult> many = new ArrayList<>();
        for (int n : s.waiters()) {
            many.add(ManyFutures.run(n, ScaleRun.WAITER_LINES, Knobs.DEFAULTS, p -> progress.accept("many waiters: " + p)));
        }
        List<ScaleRun.Floor> floor = new ArrayList<>();
        for (UnparkFloor.Scheduler on : UnparkFloor.Scheduler.values()) {
            progress.accept("floor (no reactor) on the " + on.label);
            floor.add(UnparkFloor.run(on, s.fanOut(), s.fanOutRounds(), s.waiters()));
        }
        Optional<ScaleRun.Pinned> pinned = jfr == null ? Optional.empty() : Optional.of(pinnedEvents(jfr));
        return new ScaleRun(date, machine, jdk, s, lines, idle, fan, many, floor, pinned);
    }

    /** A stamp written on the stream just before its store, read after the wait (the store's release orders it). */
    private static final class Stamp {
        long at;

        void stamp() { at = System.nanoTime(); }
    }

    /** Process CPU, device threads' CPU and parker threads' CPU at one instant, and every thread's as the OS tells it. */
    private record Cpu(long process, ThreadCpu threads, long parkerStats, OsThreads os) {
        /** @param os whether to read every thread's time on a CPU too (the idle cell's measure: a few /proc files per thread) */
        static Cpu take(GpuReactor r, boolean os) {
            return new Cpu(OS.getProcessCpuTime(), ThreadCpu.take(Set.of()), r.stats().parkerCpuNanos(),
                    os ? OsThreads.take() : new OsThreads(Map.of(), Map.of(), Map.of()));
        }

        long groupSince(Cpu before, String prefix) {
            long sum = 0;
            for (Map.Entry<String, Long> e : threads.nanosByGroupSince(before.threads).entrySet()) {
                if (e.getKey().startsWith(prefix)) sum += e.getValue();
            }
            return sum;
        }

        /** Process CPU less the simulated device's threads. */
        long waitingSince(Cpu before) { return process - before.process - groupSince(before, "gar-sim-"); }

        /**
         * The same from each thread's nanoseconds on a CPU where the OS tells them ({@link OsThreads#cpuNanosSince}): the
         * process clock moves in 10 ms ticks here, 1 ms/s over an idle window of 10 s. A thread that ended inside the
         * window is lost, which an idle window does not see (its threads sleep); elsewhere {@link #waitingSince}.
         */
        long idleWaitingSince(Cpu before) {
            long all = os.cpuNanosSince(before.os);
            return all < 0 ? waitingSince(before) : Math.max(0, all - groupSince(before, "gar-sim-"));
        }

        long parkerThreads() { return threads.names().values().stream().filter(n -> n.startsWith("gar-parker")).count(); }
    }

    /** A default reactor, but for its lines per parker (0: the default). */
    static GpuReactor reactor(int linesPerParker) {
        GpuReactor.Builder b = GpuReactor.builder();
        if (linesPerParker > 0) b.linesPerParker(linesPerParker);
        return b.build();
    }

    static ScaleRun.LinesCell lines(int lines, Duration wait, Duration warmup, Duration window, int linesPerParker) throws InterruptedException {
        try (SimDevice device = SimDevice.open(); GpuReactor r = reactor(linesPerParker)) {
            int slots = lines * CompletionLine.WORDS;
            SimStream[] streams = new SimStream[slots];
            for (int i = 0; i < slots; i++) streams[i] = device.stream();
            AtomicLong from = new AtomicLong(Long.MAX_VALUE), to = new AtomicLong(Long.MAX_VALUE);
            long[][] wakes = new long[slots][];
            int[] counts = new int[slots];
            long[] issued = new long[slots], completed = new long[slots];
            Thread[] vts = new Thread[slots];
            for (int i = 0; i < slots; i++) {
                int k = i;
                vts[i] = r.startVirtualThread(() -> {
                    long[] w = new long[1024];
                    int c = 0;
                    // Stops after the window: the last wait it launched completes before it leaves.
                    while (System.nanoTime() - to.get() < 0) {
                        Stamp st = new Stamp();
                        streams[k].compute(wait).compute(Duration.ZERO, st::stamp);
                        SimStream.Signal sig = streams[k].signal();
                        issued[k]++;
                        r.await(sig.descriptor(), sig.port(), () -> st).join();
                        long woke = System.nanoTime();
                        completed[k]++;
                        if (st.at - from.get() >= 0 && st.at - to.get() < 0) {
                            if (c == w.length) w = Arrays.copyOf(w, c * 2);
                            w[c++] = woke - st.at;
                        }
                    }
                    wakes[k] = w;
                    counts[k] = c;
                });
            }
            Thread.sleep(warmup);
            Cpu before = Cpu.take(r, false);
            from.set(before.threads.wallNanos());
            to.set(from.get() + window.toNanos());
            Thread.sleep(window);
            Cpu after = Cpu.take(r, false);
            for (Thread t : vts) {
                if (!t.join(GUARD)) throw new IllegalStateException("a waiting virtual thread stalled on " + lines + " lines");
            }
            long[] all = new long[Arrays.stream(counts).sum()];
            int at = 0;
            for (int i = 0; i < slots; i++) {
                System.arraycopy(wakes[i], 0, all, at, counts[i]);
                at += counts[i];
            }
            Arrays.sort(all);
            long wall = after.threads.wallNanos() - before.threads.wallNanos();
            return new ScaleRun.LinesCell(lines, wait, wall, after.waitingSince(before), after.groupSince(before, "gar-parker"),
                    after.parkerStats - before.parkerStats, after.parkerThreads(), r.stats().carriers(), all.length,
                    percentile(all, 0.50), percentile(all, 0.99), Arrays.stream(issued).sum(), Arrays.stream(completed).sum(),
                    r.registrations());
        }
    }

    static ScaleRun.IdleCell idle(int lines, Duration window, int linesPerParker) throws InterruptedException {
        CompletionLine[] owned = new CompletionLine[lines];
        for (int i = 0; i < lines; i++) owned[i] = CompletionLine.allocate();
        try (SimDevice device = SimDevice.open(); GpuReactor r = reactor(linesPerParker)) {
            long completed = 0;
            for (CompletionLine line : owned) {
                SimStream s = device.stream(line, Slot.of(0));
                // The store waits until the wait is registered with its parker: a store that came first (a warm JVM
                // launches a 0 ms kernel faster than a thread registers) settled the wait at its registration, and
                // the line then had no parker to measure at rest.
                CountDownLatch gate = new CountDownLatch(1);
                SimStream.Signal sig = s.hold(gate).compute(Duration.ZERO).signal();
                Thread vt = r.startVirtualThread(() -> r.await(sig.descriptor(), sig.port()).join());
                long until = System.nanoTime() + GUARD.toNanos();
                while (r.registrations() == 0 && vt.isAlive() && System.nanoTime() - until < 0) Thread.sleep(1);
                gate.countDown();
                if (!vt.join(GUARD)) throw new IllegalStateException("the first wait of an idle line stalled");
                completed++;
            }
            Thread.sleep(IDLE_SETTLE); // past every idle spin: the window sees lines at rest
            Cpu before = Cpu.take(r, true);
            Thread.sleep(window);
            Cpu after = Cpu.take(r, true);
            long wall = after.threads.wallNanos() - before.threads.wallNanos();
            return new ScaleRun.IdleCell(lines, wall, after.idleWaitingSince(before), after.groupSince(before, "gar-parker"),
                    after.parkerStats - before.parkerStats, after.groupSince(before, "gar-") - after.groupSince(before, "gar-sim-"),
                    after.parkerThreads(), lines, completed, r.registrations());
        } finally {
            for (CompletionLine l : owned) l.close();
        }
    }

    static ScaleRun.FanOut fanOut(int waiters, int rounds, int linesPerParker) throws InterruptedException {
        final int unmeasured = 3;
        long[] last = new long[rounds];
        long completed = 0;
        try (SimDevice device = SimDevice.open(); GpuReactor r = reactor(linesPerParker)) {
            SimStream stream = device.stream();
            for (int round = -unmeasured; round < rounds; round++) {
                CountDownLatch gate = new CountDownLatch(1);
                Stamp st = new Stamp();
                stream.hold(gate).compute(Duration.ZERO, st::stamp);
                SimStream.Signal sig = stream.signal();
                long[] ran = new long[waiters];
                Thread[] ts = new Thread[waiters];
                for (int i = 0; i < waiters; i++) {
                    int k = i;
                    ts[i] = r.startVirtualThread(() -> {
                        r.await(sig.descriptor(), sig.port()).join();
                        ran[k] = System.nanoTime();
                    });
                }
                long by = System.nanoTime() + GUARD.toNanos();
                while (r.registrations() < waiters) {
                    if (System.nanoTime() - by > 0) throw new IllegalStateException("fan-out: " + r.registrations() + " registered");
                    Thread.sleep(1);
                }
                for (Thread t : ts) {
                    while (t.getState() != Thread.State.WAITING) {
                        if (System.nanoTime() - by > 0) throw new IllegalStateException("fan-out: a waiter never parked");
                        Thread.sleep(1);
                    }
                }
                gate.countDown();
                for (Thread t : ts) {
                    if (!t.join(GUARD)) throw new IllegalStateException("fan-out: a waiter stalled");
                }
                if (round >= 0) {
                    last[round] = Arrays.stream(ran).max().orElseThrow() - st.at;
                    completed += waiters;
                }
            }
            Arrays.sort(last);
            return new ScaleRun.FanOut(waiters, rounds, percentile(last, 0.50), percentile(last, 0.99), last[rounds - 1],
                    (long) waiters * rounds, completed, r.registrations());
        }
    }

    /** The nearest-rank percentile of sorted {@code v}; 0 when empty. */
    static long percentile(long[] v, double q) {
        if (v.length == 0) return 0;
        return v[Math.min(v.length - 1, Math.max(0, (int) Math.ceil(q * v.length) - 1))];
    }

    private static Recording pinnedRecording() {
        Recording rec = new Recording();
        rec.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
        rec.disable("dev.gpureactor.Wait"); // on by default: it would add an event per wait to what is measured
        rec.setToDisk(true);
        rec.start();
        return rec;
    }

    /** The pinning events' count, and where they happened (reason, then the first frames), most frequent first. */
    private static ScaleRun.Pinned pinnedEvents(Recording rec) throws IOException {
        rec.stop();
        Path file = Files.createTempFile("gar-scale-", ".jfr");
        try {
            rec.dump(file);
            Map<String, Long> where = new java.util.TreeMap<>();
            long n = 0;
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                if (!e.getEventType().getName().equals("jdk.VirtualThreadPinned")) continue;
                n++;
                String reason = e.hasField("pinnedReason") ? e.getString("pinnedReason") : "?";
                String frames = e.getStackTrace() == null ? "" : e.getStackTrace().getFrames().stream().limit(6)
                        .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":" + f.getLineNumber())
                        .reduce((a, b) -> a + " < " + b).orElse("");
                where.merge(reason + " @ " + frames, 1L, Long::sum);
            }
            List<String> top = where.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(5)
                    .map(en -> en.getValue() + "x " + en.getKey()).toList();
            return new ScaleRun.Pinned(n, top);
        } finally {
            rec.close();
            Files.deleteIfExists(file);
        }
    }
}
