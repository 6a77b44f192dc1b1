package dev.gpureactor.bench.service;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What the OS's view of the threads counts: a thread's sleeps, under the name the kernel keeps, in the report's groups. */
class OsThreadsTest {
    @Test
    void reads_the_voluntary_switches_of_a_status_file() {
        assertEquals(1234, OsThreads.voluntarySwitches(List.of("Name:\tx", "voluntary_ctxt_switches:\t1234",
                "nonvoluntary_ctxt_switches:\t7")));
        assertEquals(-1, OsThreads.voluntarySwitches(List.of("Name:\tx")));
    }

    @Test
    void a_kernel_name_cut_at_fifteen_characters_may_be_the_longer_java_name() {
        assertTrue(OsThreads.mayBe("gar-service-wat", ScanWatcher.THREAD_NAME));
        assertTrue(OsThreads.mayBe("gar-carrier-", "gar-carrier-"));
        assertFalse(OsThreads.mayBe("gar-service-", ScanWatcher.THREAD_NAME), "under the limit the name was not cut");
        assertFalse(OsThreads.mayBe("gar-service-waX", ScanWatcher.THREAD_NAME));
    }

    @Test
    void a_watcher_under_its_kernel_name_is_in_the_watcher_group() {
        LoadThreads load = LoadThreads.open(1);
        try {
            assertEquals(ServiceBench.CpuSnapshot.WATCHER, ServiceBench.CpuSnapshot.group("gar-service-wat", load));
            assertEquals(ServiceBench.CpuSnapshot.PARKERS, ServiceBench.CpuSnapshot.group("gar-parker-line", load));
            assertEquals(ServiceBench.CpuSnapshot.OTHER, ServiceBench.CpuSnapshot.group("C2 CompilerThre", load));
        } finally {
            load.close();
        }
    }

    @Test
    void reads_the_time_on_a_cpu_from_a_schedstat_line() {
        assertEquals(123456789L, OsThreads.onCpuNanos("123456789 4567 89\n"));
        assertEquals(-1, OsThreads.onCpuNanos(""));
        assertEquals(-1, OsThreads.onCpuNanos("x 1 2"));
    }

    @Test
    void the_process_cpu_since_a_snapshot_grows_by_what_a_thread_computed() {
        assumeTrue(OsThreads.take().available(), "no /proc/self/task on this OS: gar scale falls back to the process CPU clock");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        OsThreads before = OsThreads.take();
        long until = mx.getCurrentThreadCpuTime() + TimeUnit.MILLISECONDS.toNanos(50), spins = 0;
        while (mx.getCurrentThreadCpuTime() < until) spins++; // 50 ms on a CPU, by this thread's own clock
        OsThreads after = OsThreads.take();
        long cpu = after.cpuNanosSince(before);
        assertTrue(cpu >= TimeUnit.MILLISECONDS.toNanos(50), "50 ms of this thread's CPU counted (" + spins + " spins): " + cpu + " ns");
        assertEquals(-1, after.cpuNanosSince(new OsThreads(Map.of(), Map.of(), Map.of())), "no times before: unknown, not 0");
    }

    @Test
    void counts_the_sleeps_of_a_thread_that_parks_under_its_kernel_name() throws InterruptedException {
        assumeTrue(OsThreads.take().available(), "no /proc/self/task on this OS: the report leaves the sleeps out (the status-file"
                + " parser and the thread groups are tested above on text, on every OS)");
        Thread sleeper = Thread.ofPlatform().name("os-threads-test-sleeper").unstarted(() -> {
            for (int i = 0; i < 50; i++) LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            LockSupport.park(); // stays alive until the second snapshot
        });
        OsThreads before = OsThreads.take();
        sleeper.start();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (sleeper.getState() != Thread.State.WAITING && System.nanoTime() - end < 0) Thread.sleep(5);
        OsThreads after = OsThreads.take();
        LockSupport.unpark(sleeper);
        sleeper.join();
        Map<String, Long> byName = after.sleepsByNameSince(before);
        Long slept = byName.get("os-threads-test");
        assertTrue(slept != null && slept >= 50, "50 parks of 1 ms are 50 sleeps at least, under the name cut to 15: " + byName);
    }
}
