package dev.gpureactor.carrier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the OS scheduler says of a platform thread, where it says it (Linux's /proc): the
 * {@link CarrierWatch}'s second opinion on a RUNNABLE carrier that burned almost no CPU. Such a
 * carrier either sleeps in the kernel (a read(2) of a pipe, a blocking downcall: blocked in the OS)
 * or waits for a core on an overloaded machine (computing, starved). The Java state is RUNNABLE in
 * both; the kernel's is not: S or D sleeping, R running or queued to run.
 *
 * <p>The kernel's thread id is not in the Java API; a thread reads its own from the link
 * /proc/thread-self (pid/task/tid) as it starts to carry. Everything here answers "unknown"
 * rather than fail where /proc is absent or unreadable (other systems, a restricted container); the
 * watch then goes by CPU time alone.
 */
public final class OsThread {
    /** No kernel thread id: not Linux, or /proc is not readable. */
    public static final long NO_ID = -1;

    /** The kernel's view of a thread, as far as the watch needs it. */
    public enum Scheduling {
        /** R: on a core or queued for one: it computes (or would). */
        RUNNING,
        /** S or D: asleep in the kernel, waiting for an event or for I/O. */
        SLEEPING,
        /** Not known: no id, no /proc, the thread gone, or another state (stopped, traced, zombie). */
        UNKNOWN
    }

    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    private OsThread() { }

    /** The calling thread's kernel id (Linux), or {@link #NO_ID}. One readlink(2). */
    public static long currentId() {
        try {
            Path link = Files.readSymbolicLink(THREAD_SELF); // "<pid>/task/<tid>"
            return Long.parseLong(link.getFileName().toString());
        } catch (IOException | UnsupportedOperationException | NumberFormatException | SecurityException e) {
            return NO_ID;
        }
    }

    /** The scheduler state of this process's thread {@code id}: the field after the command in /proc/self/task/id/stat. */
    public static Scheduling scheduling(long id) {
        if (id == NO_ID) return Scheduling.UNKNOWN;
        byte[] stat;
        try {
            stat = Files.readAllBytes(Path.of("/proc/self/task", Long.toString(id), "stat"));
        } catch (IOException | SecurityException e) { // gone, or no /proc
            return Scheduling.UNKNOWN;
        }
        return scheduling(stat);
    }

    /** Parses a stat line: "tid (comm) S ..."; comm may hold spaces and ')' itself, so the last ')' ends it. */
    public static Scheduling scheduling(byte[] stat) {
        int i = stat.length - 1;
        while (i >= 0 && stat[i] != ')') i--;
        if (i < 0 || i + 2 >= stat.length) return Scheduling.UNKNOWN;
        return switch (stat[i + 2]) {
            case 'R' -> Scheduling.RUNNING;
            case 'S', 'D' -> Scheduling.SLEEPING;
            default -> Scheduling.UNKNOWN;
        };
    }
}
