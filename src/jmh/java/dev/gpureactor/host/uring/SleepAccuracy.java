package dev.gpureactor.host.uring;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.gpureactor.core.Sleeper;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Oversleep of a deadline sleep (wake time minus deadline) for four ways to sleep, each on its own
 * platform thread, since timer slack is per thread:
 * <ul>
 *   <li>{@code park, default slack}: {@link Sleeper#system()} ({@code LockSupport.parkNanos} to the
 *       deadline) with the slack the thread inherited (50 µs unless someone changed it);
 *   <li>{@code park, 1 ns slack}: the same after {@code prctl(PR_SET_TIMERSLACK, 1)};
 *   <li>{@code io_uring timeout}: {@link UringSleeper} (one {@code IORING_OP_TIMEOUT});
 *   <li>{@code io_uring, 1 ns slack}: the same after the prctl, to show slack does not touch it.
 * </ul>
 * Sleeps run in interleaved blocks (every strategy does a block of each size in turn), so a noisy
 * neighbour on a shared machine hits all of them alike. A main program, not a JMH benchmark: the
 * quantity is a latency distribution per sleep, not a throughput.
 *
 * <p>Run: {@code mvn -B -q -ntp -Pjmh package -DskipTests && java --enable-native-access=ALL-UNNAMED
 * -cp target/jmh/benchmarks.jar dev.gpureactor.host.uring.SleepAccuracy [n100us=N] [n1ms=N]
 * [n10ms=N] [block=N]}.
 */
@SuppressWarnings("restricted")
public final class SleepAccuracy {
    private SleepAccuracy() {}

    private static final int PR_SET_TIMERSLACK = 29;
    private static final int PR_GET_TIMERSLACK = 30;

    // A private prctl, on purpose: the benchmark depends on no park-layer class.
    private static final MethodHandle PRCTL = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("prctl").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));

    private static int prctl(int option, long arg) {
        try {
            return (int) PRCTL.invokeExact(option, arg);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** One way to sleep, bound to its own thread. */
    private static final class Strategy {
        final String name;
        final ExecutorService thread;
        Sleeper sleeper;
        UringSleeper uring;
        long slackNs;
        final Map<Long, List<Long>> oversleeps = new LinkedHashMap<>();

        Strategy(String name, boolean oneNsSlack, boolean useUring) throws Exception {
            this.name = name;
            this.thread = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().name(name).daemon().unstarted(r));
            thread.submit(() -> {
                if (oneNsSlack && prctl(PR_SET_TIMERSLACK, 1) != 0) throw new IllegalStateException("prctl failed");
                slackNs = prctl(PR_GET_TIMERSLACK, 0);
                if (useUring) {
                    uring = UringSleeper.open();
                    sleeper = uring;
                } else {
                    sleeper = Sleeper.system();
                }
                return null;
            }).get();
        }

        void block(long nanos, int n, boolean record) throws Exception {
            thread.submit(() -> {
                List<Long> out = oversleeps.computeIfAbsent(nanos, k -> new ArrayList<>());
                for (int i = 0; i < n; i++) {
                    long at = System.nanoTime() + nanos;
                    sleeper.sleepUntil(at);
                    long over = System.nanoTime() - at;
                    if (record) out.add(over);
                }
                return null;
            }).get();
        }

        void close() throws Exception {
            thread.submit(() -> {
                if (uring != null) uring.close();
                return null;
            }).get();
            thread.shutdown();
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, Integer> opt = new LinkedHashMap<>(Map.of("n100us", 1000, "n1ms", 1000, "n10ms", 200, "block", 50));
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv.length != 2 || !opt.containsKey(kv[0])) throw new IllegalArgumentException("usage: " + opt.keySet() + "=N");
            opt.put(kv[0], Integer.parseInt(kv[1]));
        }
        System.out.println("uring probe: " + UringProbe.probe() + "; loadavg at start: " + loadavg());
        System.out.printf(Locale.ROOT, "java %s, %s %s, %d cpus%n", System.getProperty("java.version"),
                System.getProperty("os.name"), System.getProperty("os.version"), Runtime.getRuntime().availableProcessors());

        List<Strategy> all = List.of(
                new Strategy("park, default slack", false, false),
                new Strategy("park, 1 ns slack", true, false),
                new Strategy("io_uring timeout", false, true),
                new Strategy("io_uring, 1 ns slack", true, true));
        for (Strategy s : all) System.out.printf(Locale.ROOT, "%-22s thread timer slack %d ns%n", s.name, s.slackNs);

        long[] sizes = {100_000, 1_000_000, 10_000_000};
        int[] counts = {opt.get("n100us"), opt.get("n1ms"), opt.get("n10ms")};
        int block = opt.get("block");
        long t0 = System.nanoTime();
        for (Strategy s : all) for (long d : sizes) s.block(d, 20, false); // warm-up: JIT, ring, page faults
        for (int k = 0; k < sizes.length; k++) {
            int perBlock = Math.max(1, Math.min(block, counts[k] / 4));
            for (int done = 0; done < counts[k]; done += perBlock) {
                int n = Math.min(perBlock, counts[k] - done);
                for (Strategy s : all) s.block(sizes[k], n, true);
            }
        }
        double secs = (System.nanoTime() - t0) / 1e9;

        System.out.println();
        System.out.println("| requested | strategy | n | min | p50 | p90 | p99 | max |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (long d : sizes) {
            for (Strategy s : all) {
                long[] v = s.oversleeps.get(d).stream().mapToLong(Long::longValue).sorted().toArray();
                System.out.printf(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %s |%n", label(d), s.name, v.length,
                        us(v[0]), us(q(v, 0.50)), us(q(v, 0.90)), us(q(v, 0.99)), us(v[v.length - 1]));
            }
        }
        System.out.println();
        for (Strategy s : all) {
            if (s.uring != null) {
                System.out.printf(Locale.ROOT, "%s: %d ring timeouts, %d refused%s%n", s.name, s.uring.timeouts(),
                        s.uring.failedTimeouts(), s.uring.lastRefusal().map(r -> " (last: " + r + ")").orElse(""));
            }
            s.close();
        }
        System.out.printf(Locale.ROOT, "oversleep = wake time - deadline, in µs; %.1f s in all; loadavg at end: %s%n",
                secs, loadavg());
    }

    private static String loadavg() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static long q(long[] sorted, double p) {
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static String us(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1000.0);
    }

    private static String label(long nanos) {
        return nanos >= 1_000_000 ? (nanos / 1_000_000) + " ms" : (nanos / 1000) + " µs";
    }
}
