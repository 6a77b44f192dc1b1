package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierWatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A virtual thread that blocks its carrier in the OS (an open(2) or read(2) of a FIFO: the carrier is
 * RUNNABLE and burns no CPU) does not starve its pool ({@link CarrierWatch}), and one that computes
 * is not compensated. On one carrier: a reader opens a FIFO and reads, blocked in the OS until a
 * writer comes; the writer is a virtual thread of the same pool, started once the reader is in the
 * OS, so queued behind it. In one case the reader blocks in open(2) (a FIFO's open for reading waits
 * for a writer); in the other a platform thread keeps the FIFO open for reading and writing, so the
 * reader's open returns and it blocks in read(2).
 *
 * <p>Before the watch counted such a carrier as blocked, the reader never got the bytes (the bound
 * below failed on both policies). The JDK 25 scheduler fails the same program at {@code
 * -Djdk.virtualThreadScheduler.parallelism=1} too (FileInputStream's open and read do not call
 * {@code Blocker.begin()} in JDK 25), and passes it at 2; that setting is per JVM, so it is not
 * checked here. This pool goes beyond the JDK there, on purpose: a hang is no conformance to keep.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class OsBlockedCarrierTest {
    /** A hang bound, not a performance threshold: compensation takes about two ticks (40 ms). */
    private static final long HANG_BOUND_S = 20;
    private static final byte[] MESSAGE = "bytes through the fifo".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    /** Where the reader blocks: the native method of FileInputStream at the top of its stack. */
    private static final String IN_OPEN = "open0", IN_READ = "readBytes";

    @Test
    void fork_join_a_fifo_reader_blocked_in_open_gets_the_bytes_of_a_writer_queued_behind_it() throws Exception {
        readerBlockedInTheOsGetsQueuedWritersBytes(IN_OPEN);
    }

    @Test
    void fork_join_a_fifo_reader_blocked_in_read_gets_the_bytes_of_a_writer_queued_behind_it() throws Exception {
        readerBlockedInTheOsGetsQueuedWritersBytes(IN_READ);
    }

    private void readerBlockedInTheOsGetsQueuedWritersBytes(String blockedIn) throws Exception {
        Path fifo = mkfifo(dir.resolve("fifo-" + blockedIn));
        // In read: an O_RDWR open of a FIFO (Linux) never blocks and counts as a writer, so the reader's open returns.
        try (RandomAccessFile keeper = blockedIn.equals(IN_READ) ? new RandomAccessFile(fifo.toFile(), "rw") : null;
             GpuReactor r = GpuReactor.builder().carriers(1).build();
             ExecutorService threads = r.newExecutor()) {
            AtomicReference<Thread> readerThread = new AtomicReference<>();
            Future<byte[]> reader = threads.submit(() -> {
                readerThread.set(Thread.currentThread());
                try (FileInputStream in = new FileInputStream(fifo.toFile())) { // open(2) blocks until a writer opens
                    return in.readNBytes(MESSAGE.length);
                }
            });
            awaitInTheOs(readerThread, blockedIn);
            Future<?> writer = threads.submit(() -> {
                try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
                    out.write(MESSAGE);
                }
                return null;
            });
            try {
                byte[] got = reader.get(HANG_BOUND_S, TimeUnit.SECONDS);
                assertArrayEquals(MESSAGE, got, "the reader got the writer's bytes");
                writer.get(HANG_BOUND_S, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                release(fifo, reader, writer);
                fail("the reader, blocked in the OS on the only carrier, never got the bytes of the writer queued behind it ("
                        + r.carriers().orElseThrow().compensations() + " compensations)");
            }
            assertTrue(r.carriers().orElseThrow().compensations() >= 1, "the watch started an extra carrier");
        }
    }

    @Test
    void fork_join_a_blocking_downcall_waiting_for_a_thread_queued_behind_it_returns() throws Exception {
        blockingDowncallReturns();
    }

    /**
     * The same through FFM: libc's open(2) and read(2) of the FIFO, called down from the reader (a
     * downcall pins: the carrier blocks in the kernel, RUNNABLE). Once the reader has signalled, it
     * holds the only carrier until it blocks or ends, so the writer submitted then is queued behind it.
     */
    private void blockingDowncallReturns() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux libc's O_RDONLY and open(2) signature assumed; elsewhere the FIFO cases here and CarrierWatchTest's CPU rule test the same compensation");
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        MethodHandle open = linker.downcallHandle(libc.find("open").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                Linker.Option.firstVariadicArg(2));
        MethodHandle read = linker.downcallHandle(libc.find("read").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        MethodHandle close = linker.downcallHandle(libc.find("close").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        Path fifo = mkfifo(dir.resolve("fifo-downcall"));
        try (GpuReactor r = GpuReactor.builder().carriers(1).build();
             ExecutorService threads = r.newExecutor()) {
            CountDownLatch calling = new CountDownLatch(1);
            Future<byte[]> reader = threads.submit(() -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment path = arena.allocateFrom(fifo.toString());
                    MemorySegment buf = arena.allocate(MESSAGE.length);
                    calling.countDown();
                    int fd = (int) open.invokeExact(path, 0 /* O_RDONLY */, 0); // blocks until a writer opens
                    assertTrue(fd >= 0, "open(2) of the fifo");
                    try {
                        long n = 0;
                        while (n < MESSAGE.length) { // blocks until the writer writes
                            long got = (long) read.invokeExact(fd, buf.asSlice(n), (long) MESSAGE.length - n);
                            if (got <= 0) break;
                            n += got;
                        }
                        return buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
                    } finally {
                        int closed = (int) close.invokeExact(fd);
                        assertEquals(0, closed);
                    }
                } catch (Throwable e) {
                    throw new AssertionError(e);
                }
            });
            assertTrue(calling.await(HANG_BOUND_S, TimeUnit.SECONDS), "the reader is about to call down");
            Future<?> writer = threads.submit(() -> {
                try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
                    out.write(MESSAGE);
                }
                return null;
            });
            try {
                assertArrayEquals(MESSAGE, reader.get(HANG_BOUND_S, TimeUnit.SECONDS), "the reader got the writer's bytes");
                writer.get(HANG_BOUND_S, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                release(fifo, reader, writer);
                fail("the downcall, blocked in the OS on the only carrier, never returned ("
                        + r.carriers().orElseThrow().compensations() + " compensations)");
            }
            assertTrue(r.carriers().orElseThrow().compensations() >= 1, "the watch started an extra carrier");
        }
    }

    @Test
    void fork_join_a_carrier_that_computes_for_ticks_with_tasks_queued_is_not_compensated() throws Exception {
        computingCarrierIsNotCompensated();
    }

    /**
     * A CPU-bound virtual thread holds the only carrier for ten ticks while tasks queue behind it:
     * RUNNABLE and burning its ticks, it is computing, and the JDK adds no carrier for it either.
     */
    private static void computingCarrierIsNotCompensated() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(1).build();
             ExecutorService threads = r.newExecutor()) {
            CountDownLatch computing = new CountDownLatch(1);
            AtomicBoolean computed = new AtomicBoolean();
            long holdNanos = 10 * CarrierWatch.TICK_NANOS;
            Future<Long> spinner = threads.submit(() -> {
                computing.countDown();
                long end = System.nanoTime() + holdNanos, spins = 0;
                while (System.nanoTime() - end < 0) spins++;
                computed.set(true);
                return spins;
            });
            assertTrue(computing.await(HANG_BOUND_S, TimeUnit.SECONDS), "the computing task began");
            List<Future<Boolean>> queued = new ArrayList<>();
            for (int i = 0; i < 3; i++) queued.add(threads.submit(computed::get));
            assertTrue(spinner.get(HANG_BOUND_S, TimeUnit.SECONDS) > 0, "it computed");
            for (Future<Boolean> f : queued)
                assertTrue(f.get(HANG_BOUND_S, TimeUnit.SECONDS), "a queued task ran only once the computing one left the carrier");
            assertEquals(0, r.carriers().orElseThrow().compensations(), "no extra carrier for a computing one");
        }
    }

    /** Waits (bounded) until the reader's stack shows it inside the FIFO's open(2) or read(2) ({@code method}). */
    static void awaitInTheOs(AtomicReference<Thread> readerThread, String method) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_BOUND_S);
        String where = "not started";
        while (System.nanoTime() - end < 0) {
            Thread t = readerThread.get();
            if (t != null) {
                StackTraceElement[] stack = t.getStackTrace();
                where = Arrays.toString(stack);
                if (t.getState() == Thread.State.RUNNABLE && stack.length > 0 && stack[0].isNativeMethod()
                        && stack[0].getClassName().equals(FileInputStream.class.getName())
                        && stack[0].getMethodName().equals(method)) return;
            }
            Thread.sleep(1);
        }
        fail("the reader never blocked in FileInputStream." + method + ": " + where);
    }

    /**
     * After a failed bound, unblocks both so the reactor can close: an O_RDWR open of a FIFO (Linux)
     * never blocks and is a reader and a writer at once, which both opens wait for.
     */
    private static void release(Path fifo, Future<?> reader, Future<?> writer) throws IOException, InterruptedException {
        try (RandomAccessFile both = new RandomAccessFile(fifo.toFile(), "rw")) {
            both.write(new byte[MESSAGE.length]);
            for (Future<?> f : new Future<?>[] {reader, writer}) {
                try {
                    f.get(HANG_BOUND_S, TimeUnit.SECONDS);
                } catch (Exception ignored) {
                    // only unblocking here; the test has failed already
                }
            }
        }
    }

    static Path mkfifo(Path path) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no mkfifo on this system (" + e.getMessage() + "); CarrierWatchTest tests the same decision on numbers alone");
            throw e;
        }
        assertTrue(p.waitFor(HANG_BOUND_S, TimeUnit.SECONDS), "mkfifo finished");
        assertEquals(0, p.exitValue(), () -> "mkfifo failed: " + new String(readAll(p), StandardCharsets.UTF_8));
        assertTrue(Files.exists(path), "the fifo exists");
        return path;
    }

    private static byte[] readAll(Process p) {
        try {
            return p.getInputStream().readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
