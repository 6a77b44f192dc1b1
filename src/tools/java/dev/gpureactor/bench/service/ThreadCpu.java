package dev.gpureactor.bench.service;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * CPU time of the JVM's platform threads at one instant, by thread, so that the waiting side of a
 * benchmark (parkers, carriers, the JDK's timer threads, watchers, waiting platform threads) can
 * be charged for what it burned in a window. Virtual threads run on carriers, so their CPU is the
 * carriers'. JIT and GC threads are not Java threads and are not counted.
 *
 * <p>Threads to leave out (the simulated device, the harness thread) are named by id. A thread
 * born inside the window counts from zero; one that died inside it is lost (the benchmarks keep
 * their threads alive for the whole window). Shared by {@code gar bench} and {@code gar service}.
 */
public record ThreadCpu(long wallNanos, Map<Long, Long> cpuNanos, Map<Long, String> names) {
    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public static ThreadCpu take(Set<Long> excluded) {
        long[] ids = MX.getAllThreadIds();
        long[] cpu = MX.getThreadCpuTime(ids);
        long wall = System.nanoTime();
        Map<Long, Long> byId = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (cpu[i] < 0 || excluded.contains(ids[i])) continue;
            byId.put(ids[i], cpu[i]);
        }
        for (var info : MX.getThreadInfo(byId.keySet().stream().mapToLong(Long::longValue).toArray())) {
            if (info != null) names.put(info.getThreadId(), info.getThreadName());
        }
        return new ThreadCpu(wall, byId, names);
    }

    /**
     * CPU nanoseconds burned since {@code before}, by group of threads: a thread's group is its
     * name without a trailing number ("gar-carrier-", "ForkJoinPool-1-worker-"), so the report can
     * say who burned the CPU.
     */
    public Map<String, Long> nanosByGroupSince(ThreadCpu before) {
        return growthByGroup(cpuNanos, before.cpuNanos, names);
    }

    /**
     * How much each thread's counter grew from {@code before} to {@code now}, summed by group: a thread's name
     * (from {@code names}) less its trailing number. A thread born since counts from zero; one that shrank or
     * stood still is left out. Shared with {@link OsThreads}, whose counters are the OS's sleeps.
     */
    static Map<String, Long> growthByGroup(Map<Long, Long> now, Map<Long, Long> before, Map<Long, String> names) {
        Map<String, Long> out = new TreeMap<>();
        for (var e : now.entrySet()) {
            long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            if (d <= 0) continue;
            out.merge(names.getOrDefault(e.getKey(), "?").replaceAll("\\d+$", ""), d, Long::sum);
        }
        return out;
    }
}
