package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.VirtualThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileInputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CarrierPool#queueDepth} and {@link CarrierPool#backlogged} count tasks waiting for a carrier,
 * not tasks running on spare carriers that stand in for blocked ones. Three threads blocked on a
 * one-carrier pool, each on a carrier of its own (the watch's compensation for FIFO reads, the JDK's
 * for a child process's pipe), leave nothing waiting. Before the fix both read the admitted tasks less
 * the parallelism: a depth of 2 for as long as the threads blocked, and a backlog, which turns the
 * parkers' hosting off (an external probe's Backlog: hosted 0 instead of about 58 of 60 waits).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CompensatedQueueDepthTest {
    /** A hang bound, not a speed target. */
    private static final long HANG_BOUND_S = 20;
    private static final int READERS = 3;

    @TempDir
    Path dir;

    @Test
    void threads_blocked_on_carriers_the_watch_compensates_are_not_queued() throws Exception {
        Path fifo = OsBlockedCarrierTest.mkfifo(dir.resolve("depth"));
        try (RandomAccessFile keeper = new RandomAccessFile(fifo.toFile(), "rw")) { // the readers' opens return: they block in read(2)
            CarrierPool pool = new CarrierPool(1, 256, Duration.ofSeconds(3), w -> { });
            ThreadFactory factory = pool.threadFactory(VirtualThreads.builder(pool));
            List<Thread> readers = new ArrayList<>();
            for (int i = 0; i < READERS; i++) {
                Thread t = factory.newThread(() -> {
                    try (FileInputStream in = new FileInputStream(fifo.toFile())) { in.read(new byte[1]); } catch (Exception e) { throw new AssertionError(e); }
                });
                readers.add(t);
                t.start(); // the first blocks the only carrier; the watch compensates it while the others queue
            }
            try {
                awaitAllIn(readers, "readBytes");
                assertTrue(pool.compensations() >= READERS - 1, "the watch started a spare for each reader that had one queued behind it");
                assertEquals(0, pool.queueDepth(), "every blocked reader has a carrier: none waits for one");
                assertFalse(pool.backlogged(), "no woken thread waits for a carrier");
            } finally {
                keeper.write(new byte[READERS]);
                for (Thread t : readers) t.join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
                pool.close(Duration.ofSeconds(HANG_BOUND_S));
            }
        }
    }

    @Test
    void threads_blocked_in_calls_the_jdk_compensates_are_not_queued() throws Exception {
        CarrierPool pool = new CarrierPool(1, 256, Duration.ofSeconds(3), w -> { });
        ThreadFactory factory = pool.threadFactory(VirtualThreads.builder(pool));
        List<Process> children = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        try {
            for (int i = 0; i < READERS; i++) {
                Process p = new ProcessBuilder("cat").start(); // writes nothing until the test writes to it
                children.add(p);
                Thread t = factory.newThread(() -> {
                    try { p.getInputStream().read(); } catch (Exception e) { throw new AssertionError(e); } // Blocker-wrapped: the JDK compensates
                });
                readers.add(t);
                t.start();
            }
            awaitAllIn(readers, "readBytes");
            assertEquals(0, pool.compensations(), "the JDK compensated the pipe reads itself; the watch had nothing to do");
            assertEquals(0, pool.queueDepth(), "every blocked reader has a carrier: none waits for one");
            assertFalse(pool.backlogged(), "no woken thread waits for a carrier");
        } finally {
            for (Process p : children) {
                try (OutputStream in = p.getOutputStream()) { in.write('x'); }
            }
            for (Thread t : readers) t.join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
            children.forEach(Process::destroyForcibly);
            pool.close(Duration.ofSeconds(HANG_BOUND_S));
        }
    }

    /** Waits (bounded) until every one of {@code threads} shows {@code method}, a native read, at the top of its stack. */
    private static void awaitAllIn(List<Thread> threads, String method) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_BOUND_S);
        String where = "";
        while (System.nanoTime() - end < 0) {
            boolean all = true;
            for (Thread t : threads) {
                StackTraceElement[] stack = t.getStackTrace();
                if (stack.length == 0 || !stack[0].isNativeMethod() || !stack[0].getMethodName().equals(method)) {
                    all = false;
                    where = t + ": " + Arrays.toString(stack);
                    break;
                }
            }
            if (all) return;
            Thread.sleep(5);
        }
        fail("not every thread blocked in " + method + ": " + where);
    }
}
