package dev.gpureactor.loom;

import dev.gpureactor.carrier.OsThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The kernel's view of a thread, the watch's second opinion on a quiet RUNNABLE carrier. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OsThreadTest {
    @Test
    void the_state_is_the_field_after_the_last_parenthesis() {
        assertEquals(OsThread.Scheduling.RUNNING, parse("42 (gar-carrier-0) R 1 2 3"));
        assertEquals(OsThread.Scheduling.SLEEPING, parse("42 (gar-carrier-0) S 1 2 3"));
        assertEquals(OsThread.Scheduling.SLEEPING, parse("42 (java) D 1 2 3"));
        assertEquals(OsThread.Scheduling.RUNNING, parse("42 (a) R (b) R 1 2 3"), "a command may hold ') ' itself");
        assertEquals(OsThread.Scheduling.SLEEPING, parse("42 (x) S) S 1"), "the last ')' ends the command");
        assertEquals(OsThread.Scheduling.UNKNOWN, parse("42 (gdb) T 1"), "stopped: neither");
        assertEquals(OsThread.Scheduling.UNKNOWN, parse("42 (cut"), "a truncated line");
        assertEquals(OsThread.Scheduling.UNKNOWN, parse(""));
        assertEquals(OsThread.Scheduling.UNKNOWN, OsThread.scheduling(OsThread.NO_ID));
    }

    @Test
    void a_parked_thread_sleeps_and_a_spinning_one_runs_in_the_kernels_view() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc: the watch goes by CPU time alone (CarrierWatchTest, os UNKNOWN); the parser and the UNKNOWN answer are tested above");
        long me = OsThread.currentId();
        assertNotEquals(OsThread.NO_ID, me);
        assertEquals(OsThread.Scheduling.RUNNING, OsThread.scheduling(me), "the thread reading its own state runs");

        CompletableFuture<Long> parkedId = new CompletableFuture<>(), spinningId = new CompletableFuture<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread parked = Thread.ofPlatform().daemon(true).start(() -> {
            parkedId.complete(OsThread.currentId());
            while (!stop.get()) LockSupport.park();
        });
        Thread spinning = Thread.ofPlatform().daemon(true).start(() -> {
            spinningId.complete(OsThread.currentId());
            while (!stop.get()) Thread.onSpinWait();
        });
        try {
            long p = parkedId.get(10, TimeUnit.SECONDS), s = spinningId.get(10, TimeUnit.SECONDS);
            assertNotEquals(me, p);
            assertNotEquals(p, s);
            awaitState(parked, Thread.State.WAITING);
            // Java says WAITING a moment before the futex call: bounded, not a timing threshold.
            awaitScheduling(p, OsThread.Scheduling.SLEEPING, "parked: asleep on its futex");
            // R whether it holds a core or waits for one (this machine may be busy). It sleeps only while
            // the JVM holds it (a safepoint, a handshake), rarely and briefly: most of the time, not all.
            // "Most of the time" is a share of time, so the looks are spread over it: back to back they
            // take about a millisecond, and one pause of the JVM could cover most of them.
            int running = 0, looks = 100;
            StringBuilder seen = new StringBuilder(looks);
            for (int i = 0; i < looks; i++) {
                OsThread.Scheduling now = OsThread.scheduling(s);
                if (now == OsThread.Scheduling.RUNNING) running++;
                seen.append(now.name().charAt(0));
                Thread.sleep(2);
            }
            assertTrue(running > looks / 2, "spinning: R at " + running + " of " + looks + " looks, 2 ms apart: " + seen);
        } finally {
            stop.set(true);
            LockSupport.unpark(parked);
            parked.join();
            spinning.join();
        }
        // The native thread exits a moment after the Java thread ends.
        awaitScheduling(parkedId.get(), OsThread.Scheduling.UNKNOWN, "a thread that ended is gone from /proc");
    }

    @Test
    void fork_join_a_carrier_records_its_kernel_id_in_its_tally_for_the_watch() throws Exception {
        carrierRecordsItsId();
    }

    /** Without it the watch could not ask the kernel, and would go by CPU time alone (its overload risk). */
    private static void carrierRecordsItsId() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc: no kernel ids to record (NO_ID, whose UNKNOWN answer the parser test covers)");
        try (GpuReactor r = GpuReactor.builder().carriers(1).build()) {
            CompletableFuture<String> carrierName = new CompletableFuture<>();
            CompletableFuture<Long> carrierId = new CompletableFuture<>();
            Thread t = r.threadFactory().newThread(() -> {
                String s = Thread.currentThread().toString(); // "VirtualThread[#n]/runnable@carrier-name"
                carrierName.complete(s.substring(s.indexOf('@') + 1));
                carrierId.complete(OsThread.currentId()); // a virtual thread's own call runs on its carrier's kernel thread
            });
            t.start();
            t.join();
            long id = carrierId.get(10, TimeUnit.SECONDS);
            assertNotEquals(OsThread.NO_ID, id);
            List<Long> ids = new ArrayList<>();
            r.pool().forEachCarrier((c, tally) -> {
                if (c.getName().equals(carrierName.getNow(""))) ids.add(tally.osThreadId());
            });
            assertEquals(List.of(id), ids, "the carrier that ran the thread, by name " + carrierName.getNow(""));
        }
    }

    private static OsThread.Scheduling parse(String stat) {
        return OsThread.scheduling(stat.getBytes(StandardCharsets.US_ASCII));
    }

    private static void awaitScheduling(long id, OsThread.Scheduling s, String what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (OsThread.scheduling(id) != s && System.nanoTime() - end < 0) Thread.sleep(1);
        assertEquals(s, OsThread.scheduling(id), what);
    }

    private static void awaitState(Thread t, Thread.State s) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.getState() != s && System.nanoTime() - end < 0) Thread.sleep(1);
        assertEquals(s, t.getState(), t.toString());
    }
}
