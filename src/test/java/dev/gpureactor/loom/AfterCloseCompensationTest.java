package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.carrier.VirtualThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A closed pool's live threads run to their end, compensated as before the close (the README: threads
 * already started keep running). Two threads of a one-carrier pool park before the close; after it, one
 * opens a FIFO for reading (open(2) through FileInputStream, which the JDK does not compensate) and
 * blocks the only carrier, and its writer is woken behind it. Only the carrier watch can let the writer
 * run. Before the fix the watch left at the close, once nothing was admitted (the two threads were
 * parked), and the reader never got the byte (an external probe's AfterClose: 0/3 done after close).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AfterCloseCompensationTest {
    /** A hang bound, not a speed target: the watch compensates in about two ticks (40 ms). */
    private static final long HANG_BOUND_S = 20;

    @TempDir
    Path dir;

    @Test
    void a_thread_parked_at_the_close_that_blocks_in_the_os_later_is_still_compensated() throws Exception {
        Path fifo = OsBlockedCarrierTest.mkfifo(dir.resolve("after-close"));
        CarrierPool pool = new CarrierPool(1, 256, Duration.ofSeconds(3), w -> { });
        ThreadFactory factory = pool.threadFactory(VirtualThreads.builder(pool));
        CountDownLatch parked = new CountDownLatch(2), goReader = new CountDownLatch(1), goWriter = new CountDownLatch(1);
        AtomicReference<Thread> readerThread = new AtomicReference<>();
        AtomicInteger got = new AtomicInteger(-1);
        Thread reader = factory.newThread(() -> {
            try {
                parked.countDown();
                goReader.await(); // parked (unmounted) across the close
                readerThread.set(Thread.currentThread());
                try (FileInputStream in = new FileInputStream(fifo.toFile())) { got.set(in.read()); } // open(2) waits for the writer
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        Thread writer = factory.newThread(() -> {
            try {
                parked.countDown();
                goWriter.await();
                try (FileOutputStream out = new FileOutputStream(fifo.toFile())) { out.write(7); }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        reader.start();
        writer.start();
        assertTrue(parked.await(HANG_BOUND_S, TimeUnit.SECONDS), "both threads started");
        assertFalse(pool.close(Duration.ofMillis(100)), "two parked threads live: the pool is closed, not retired");

        goReader.countDown();
        OsBlockedCarrierTest.awaitInTheOs(readerThread, "open0"); // the only carrier is blocked in open(2)
        goWriter.countDown(); // the writer is queued behind it
        reader.join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
        if (reader.isAlive()) {
            try (RandomAccessFile both = new RandomAccessFile(fifo.toFile(), "rw")) { // unblocks both (Linux), so the pool can end
                both.write(new byte[2]);
                reader.join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
                writer.join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
            }
            fail("after the close, the reader blocked in open(2) on the only carrier never got the byte of the writer queued behind it ("
                    + pool.compensations() + " compensations, watch left: " + pool.watchHasLeft() + ")");
        }
        writer.join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
        assertEquals(7, got.get(), "the reader got the writer's byte");
        assertTrue(pool.compensations() >= 1, "the watch of the closed pool started a spare carrier");
        assertTrue(pool.awaitExit(Duration.ofSeconds(HANG_BOUND_S)), () -> "their end retired the pool and its carriers left: retired "
                + pool.isRetired() + ", live " + pool.liveThreads() + ", " + pool.carriersState());
    }
}
