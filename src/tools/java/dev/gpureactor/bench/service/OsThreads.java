package dev.gpureactor.bench.service;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The OS's view of this JVM's threads at one instant: each thread's name as the kernel keeps it
 * (the Java name cut to {@value #NAME_LIMIT} characters) and how often it has slept, its voluntary
 * context switches. A thread sleeps in the OS each time it parks, waits or blocks with nothing to run,
 * and on the VMs this project measures on each sleep and wake costs 13–21 µs of CPU (docs/SERVICE.md,
 * "Where else the CPU could come from"), so the sleeps per request of each thread group say where a
 * mode's waiting CPU goes. Linux only ({@code /proc/self/task}); elsewhere, or where it cannot be
 * read, the snapshot is empty and the report leaves the counts out.
 *
 * <p>It also reads each thread's time on a CPU in nanoseconds ({@code schedstat}'s first field), every thread of
 * the process, the JVM's own included: {@link #cpuNanosSince} sums it, where the process's CPU clock of
 * {@code OperatingSystemMXBean} moves in 10 ms ticks here (1 ms/s steps over a 10 s window, too coarse for an
 * idle reactor's few ms/s: {@code gar scale}'s idle lines).
 *
 * <p>A thread born inside the window counts from zero; one that ended inside it is lost (the service
 * benchmark keeps its waiting threads for the whole cell).
 *
 * @param sleeps voluntary context switches by thread id, at the instant
 * @param cpu    time on a CPU by thread id, in nanoseconds, at the instant
 * @param names  each thread's name as the kernel keeps it, by thread id
 */
public record OsThreads(Map<Long, Long> sleeps, Map<Long, Long> cpu, Map<Long, String> names) {
    /** The longest thread name the kernel keeps (16 bytes with the terminating zero). */
    static final int NAME_LIMIT = 15;

    private static final Path TASKS = Path.of("/proc/self/task");

    /** {@return this JVM's threads as the OS sees them now; empty where it cannot tell} */
    public static OsThreads take() {
        Map<Long, Long> sleeps = new HashMap<>(), cpu = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        if (!Files.isDirectory(TASKS)) return new OsThreads(sleeps, cpu, names);
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path t : tasks) {
                try {
                    long tid = Long.parseLong(t.getFileName().toString());
                    String name = Files.readString(t.resolve("comm")).strip();
                    long voluntary = voluntarySwitches(Files.readAllLines(t.resolve("status")));
                    if (voluntary < 0) continue;
                    long onCpu = onCpuNanos(Files.readString(t.resolve("schedstat")));
                    sleeps.put(tid, voluntary);
                    if (onCpu >= 0) cpu.put(tid, onCpu);
                    names.put(tid, name);
                } catch (IOException | NumberFormatException e) {
                    // the thread ended between the listing and the read: it is not counted
                }
            }
        } catch (IOException e) {
            return new OsThreads(Map.of(), Map.of(), Map.of());
        }
        return new OsThreads(sleeps, cpu, names);
    }

    /** The time on a CPU of a {@code /proc/.../schedstat} line (its first field, in nanoseconds), or -1 without one. */
    static long onCpuNanos(String schedstat) {
        String[] fields = schedstat.strip().split(" ");
        try {
            return fields.length >= 1 ? Long.parseLong(fields[0]) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * {@return the process's CPU since {@code before}, in nanoseconds: each thread's growth, a thread born since
     * counted from zero, one that ended since lost} -1 where either snapshot has no CPU times.
     */
    public long cpuNanosSince(OsThreads before) {
        if (cpu.isEmpty() || before.cpu.isEmpty()) return -1;
        long sum = 0;
        for (Map.Entry<Long, Long> e : cpu.entrySet()) sum += Math.max(0, e.getValue() - before.cpu.getOrDefault(e.getKey(), 0L));
        return sum;
    }

    /** The {@code voluntary_ctxt_switches} field of a {@code /proc/.../status} file, or -1 without one. */
    static long voluntarySwitches(List<String> status) {
        for (String line : status) {
            if (line.startsWith("voluntary_ctxt_switches:")) return Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
        }
        return -1;
    }

    /** {@return whether this snapshot has any thread} False where {@code /proc} could not be read. */
    public boolean available() { return !sleeps.isEmpty(); }

    /** Sleeps since {@code before}, by thread name as the kernel keeps it, less its trailing number. */
    Map<String, Long> sleepsByNameSince(OsThreads before) {
        return ThreadCpu.growthByGroup(sleeps, before.sleeps, names);
    }

    /**
     * Whether a kernel name {@code osName} may be the Java name {@code javaName} cut short: equal, or
     * at the kernel's limit and a prefix of it.
     */
    static boolean mayBe(String osName, String javaName) {
        return osName.equals(javaName) || (osName.length() == NAME_LIMIT && javaName.startsWith(osName));
    }
}
