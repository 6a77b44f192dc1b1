package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.VirtualThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileInputStream;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A pool whose last live thread ends after its close, in a block the watch compensated, retires its
 * carriers at once, not after their keep-alive. The watch gives its compensation back only after the
 * retirement's {@code ForkJoinPool.shutdown}, whose termination check saw a carrier still busy, and the
 * JDK looks again at no idle carrier once the count is restored: before the fix every carrier waited
 * out its keep-alive (an external probe: 30 s after each close, carrier threads piling up over
 * open/close cycles). The keep-alive here is ten minutes, so a carrier that waits it out fails the bound.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RetireAfterCompensationTest {
    /** A hang bound far under the keep-alive, not a speed target. */
    private static final long HANG_BOUND_S = 20;

    @TempDir
    Path dir;

    @Test
    void carriers_leave_when_the_last_thread_ends_after_the_close_in_a_block_the_watch_compensated() throws Exception {
        Path fifo = OsBlockedCarrierTest.mkfifo(dir.resolve("retire"));
        // O_RDWR (Linux) never blocks and counts as a writer: the reader's open returns and it blocks in read(2).
        try (RandomAccessFile keeper = new RandomAccessFile(fifo.toFile(), "rw")) {
            CarrierPool pool = new CarrierPool(1, 256, Duration.ofMinutes(10), w -> { });
            ThreadFactory factory = pool.threadFactory(VirtualThreads.builder(pool));
            AtomicReference<Thread> readerThread = new AtomicReference<>();
            Thread reader = factory.newThread(() -> {
                readerThread.set(Thread.currentThread());
                try (FileInputStream in = new FileInputStream(fifo.toFile())) { in.read(new byte[1]); } catch (Exception e) { throw new AssertionError(e); }
            });
            reader.start();
            OsBlockedCarrierTest.awaitInTheOs(readerThread, "readBytes");
            CountDownLatch ran = new CountDownLatch(1);
            factory.newThread(ran::countDown).start(); // queued behind the blocked carrier: the watch compensates it
            assertTrue(ran.await(HANG_BOUND_S, TimeUnit.SECONDS), "the queued thread ran on a spare carrier");
            assertTrue(pool.compensations() >= 1, "the watch compensated the reader's carrier");

            assertFalse(pool.close(Duration.ofMillis(100)), "the reader is live: closed, not retired");
            keeper.write(1); // the reader, the last live thread, ends now, its compensation still held
            reader.join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
            assertFalse(reader.isAlive(), "the reader got its byte");
            assertTrue(pool.awaitExit(Duration.ofSeconds(HANG_BOUND_S)),
                    "the carriers of the retired pool are still there, waiting out their keep-alive: " + pool.carriersState());
            // The retirement stops the watch, which leaves at its next wake (it is unparked): not at once.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_BOUND_S);
            while (!pool.watchHasLeft() && System.nanoTime() < deadline) Thread.sleep(10);
            assertTrue(pool.watchHasLeft(), "the watch left with the retirement");
        }
    }
}
