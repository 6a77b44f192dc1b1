package dev.gpureactor.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The benchmark's goals (docs/BENCHMARKS.md), judged on one run's own numbers: every ratio compares two strategies
 * measured in the same run at the same wait length, so machine noise that moves both moves the
 * ratio less. A goal whose strategies were not run is left out, not passed.
 */
public final class Goals {
    /** Wake p50 of gpu-reactor at most this many times the busy-spin floor. */
    public static final double FLOOR_RATIO_MAX = 10;
    /** At least this many times better than the same parker handing off to the JDK's default scheduler. */
    public static final double JDK_RATIO_MIN = 4;
    /** At least this many times better than Thread.sleep(1) polling. */
    public static final double SLEEP_RATIO_MIN = 20;
    /** Waiting CPU per line for steady waits of 1 ms and more, with the deadline plan. */
    public static final double CPU_CORES_MAX = 0.15;
    /** At least this many times less waiting CPU than busy spin. */
    public static final double CPU_RATIO_MIN = 6;
    /** ... while the wake p50 stays within this of the completion. */
    public static final double P50_MICROS_MAX = 50;
    /** Heap per waiting future beyond its virtual thread. */
    public static final double BYTES_PER_FUTURE_MAX = 1024;

    private Goals() {}

    public static List<Goal> evaluate(List<Cell> cells, Optional<ManyResult> many) {
        List<Goal> out = new ArrayList<>();
        for (long wait : cells.stream().mapToLong(Cell::waitNanos).distinct().sorted().toArray()) {
            Optional<Cell> ours = find(cells, Strategy.REACTOR, wait);
            if (ours.isEmpty()) continue;
            Cell o = ours.get();
            String at = waitText(wait);
            find(cells, Strategy.BUSY_SPIN, wait).ifPresent(f -> out.add(new Goal("floor-10x",
                    "wake p50 at most 10x the busy-spin floor (ours / floor)", at, ratio(o.p50Nanos(), f.p50Nanos()), "x",
                    FLOOR_RATIO_MAX, true, us(o.p50Nanos()) + " / " + us(f.p50Nanos()))));
            find(cells, Strategy.REACTOR_JDK, wait).ifPresent(j -> out.add(new Goal("jdk-4x",
                    "wake p50 at least 4x better than the same parker on the JDK scheduler (theirs / ours)", at,
                    ratio(j.p50Nanos(), o.p50Nanos()), "x", JDK_RATIO_MIN, false, us(j.p50Nanos()) + " / " + us(o.p50Nanos()))));
            find(cells, Strategy.SLEEP_POLL, wait).ifPresent(s -> out.add(new Goal("sleep-20x",
                    "wake p50 at least 20x better than Thread.sleep(1) polling (theirs / ours)", at,
                    ratio(s.p50Nanos(), o.p50Nanos()), "x", SLEEP_RATIO_MIN, false, us(s.p50Nanos()) + " / " + us(o.p50Nanos()))));
            if (wait >= 1_000_000) {
                out.add(new Goal("cpu-0.15", "waiting CPU at most 0.15 cores per line (deadline plan)", at, o.cpuCores(), "cores",
                        CPU_CORES_MAX, true, String.format(Locale.ROOT, "%.3f cores", o.cpuCores())));
                find(cells, Strategy.BUSY_SPIN, wait).ifPresent(f -> out.add(new Goal("cpu-6x",
                        "waiting CPU at least 6x less than busy spin (theirs / ours)", at,
                        o.cpuCores() <= 0 ? Double.POSITIVE_INFINITY : f.cpuCores() / o.cpuCores(), "x", CPU_RATIO_MIN, false,
                        String.format(Locale.ROOT, "%.3f / %.3f cores", f.cpuCores(), o.cpuCores()))));
                out.add(new Goal("p50-50us", "meanwhile wake p50 within 50 us of the completion", at, o.p50Micros(), "us",
                        P50_MICROS_MAX, true, us(o.p50Nanos())));
            }
        }
        many.ifPresent(m -> out.add(new Goal("heap-1KiB", "heap per waiting future beyond its virtual thread under 1 KiB",
                m.futures() + " futures", m.bytesPerFuture(), "B", BYTES_PER_FUTURE_MAX, true,
                String.format(Locale.ROOT, "MemoryMXBean after GC; a plainly parked virtual thread: %.0f B", m.bytesPerVirtualThread()))));
        return out;
    }

    static Optional<Cell> find(List<Cell> cells, Strategy s, long wait) {
        return cells.stream().filter(c -> c.strategy() == s && c.waitNanos() == wait && c.waits() > 0).findFirst();
    }

    private static double ratio(long a, long b) {
        return b <= 0 ? Double.POSITIVE_INFINITY : (double) a / b;
    }

    private static String us(long nanos) {
        return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
    }

    /** "100us", "1ms", "10ms", "1.5ms". */
    public static String waitText(long nanos) {
        if (nanos % 1_000_000 == 0) return nanos / 1_000_000 + "ms";
        if (nanos % 1_000 == 0 && nanos < 1_000_000) return nanos / 1_000 + "us";
        if (nanos >= 1_000_000) return String.format(Locale.ROOT, "%.3gms", nanos / 1e6);
        return String.format(Locale.ROOT, "%.3gus", nanos / 1e3);
    }
}
