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
 * <p>A thread born inside the window counts from zero; one that ended inside it is lost (the service
 * benchmark keeps its waiting threads for the whole cell).
 *
 * @param sleeps voluntary context switches by thread id, at the instant
 * @param names  each thread's name as the kernel keeps it, by thread id
 */
record OsThreads(Map<Long, Long> sleeps, Map<Long, String> names) {
    /** The longest thread name the kernel keeps (16 bytes with the terminating zero). */
    static final int NAME_LIMIT = 15;

    private static final Path TASKS = Path.of("/proc/self/task");

    static OsThreads take() {
        Map<Long, Long> sleeps = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        if (!Files.isDirectory(TASKS)) return new OsThreads(sleeps, names);
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path t : tasks) {
                try {
                    long tid = Long.parseLong(t.getFileName().toString());
                    String name = Files.readString(t.resolve("comm")).strip();
                    long voluntary = voluntarySwitches(Files.readAllLines(t.resolve("status")));
                    if (voluntary < 0) continue;
                    sleeps.put(tid, voluntary);
                    names.put(tid, name);
                } catch (IOException | NumberFormatException e) {
                    // the thread ended between the listing and the read: it is not counted
                }
            }
        } catch (IOException e) {
            return new OsThreads(Map.of(), Map.of());
        }
        return new OsThreads(sleeps, names);
    }

    /** The {@code voluntary_ctxt_switches} field of a {@code /proc/.../status} file, or -1 without one. */
    static long voluntarySwitches(List<String> status) {
        for (String line : status) {
            if (line.startsWith("voluntary_ctxt_switches:")) return Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
        }
        return -1;
    }

    /** Whether this snapshot has any thread (false where {@code /proc} could not be read). */
    boolean available() { return !sleeps.isEmpty(); }

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
