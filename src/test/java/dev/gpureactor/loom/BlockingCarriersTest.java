package dev.gpureactor.loom;

import dev.gpureactor.carrier.VirtualThreads;
import dev.gpureactor.carrier.CarrierPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Everyday blocking on the reactor's carriers, as the JDK's scheduler carries it: a blocking call the
 * JDK compensates (a child process's pipe) starts a spare carrier at once; blocks the JDK does not
 * compensate (a FIFO's read(2), a monitor entered below a native frame) get one from the watch, and the
 * pool comes back to its parallelism afterwards; a closed pool's watch stays while its threads live and
 * leaves with the last of them.
 * Each bound is a hang guard, never a speed target, except where named: the JDK picks a compensated
 * block up at once (milliseconds), so a queued task that waits seconds is the starvation under test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BlockingCarriersTest {
    private static final long HANG_BOUND_S = 30;

    @TempDir
    Path dir;

    /**
     * Eight readers of child processes' stdout, blocked in the pipe's read on the default two carriers:
     * a task submitted after them starts while they all still block, through the JDK's own compensation
     * (the readers' carriers are the JDK's CarrierThreads). At 17cfbe1 only the watch compensated them, ticks
     * later (3.7 s in the run); the JDK starts it at once.
     */
    @Test
    void a_task_submitted_behind_eight_pipe_readers_runs_while_they_block() throws Exception {
        List<Process> children = new ArrayList<>();
        try (GpuReactor r = GpuReactor.builder().carriers(2).build()) {
            ExecutorService threads = r.newExecutor(); // closed on success only: on failure its readers may never end
            List<Future<Integer>> readers = new ArrayList<>();
            CountDownLatch reading = new CountDownLatch(8);
            for (int i = 0; i < 8; i++) {
                Process p = new ProcessBuilder("cat").start(); // writes nothing until the test writes to it
                children.add(p);
                readers.add(threads.submit(() -> {
                    reading.countDown();
                    return p.getInputStream().read(); // blocks in read(2) of the pipe
                }));
            }
            assertTrue(reading.await(HANG_BOUND_S, TimeUnit.SECONDS), "the readers started");
            Thread.sleep(200); // into the read
            long t0 = System.nanoTime();
            Future<String> later = threads.submit(() -> "ran");
            // The starvation under test: the JDK runs it in milliseconds; starved, it waited seconds.
            assertEquals("ran", later.get(2, TimeUnit.SECONDS), "the later task starved behind the pipe readers");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            for (Future<Integer> f : readers) assertFalse(f.isDone(), "the readers still block (the task ran beside them)");
            for (Process p : children) {
                try (OutputStream in = p.getOutputStream()) { in.write('x'); }
            }
            for (Future<Integer> f : readers) assertEquals('x', f.get(HANG_BOUND_S, TimeUnit.SECONDS));
            assertTrue(ms < 2_000, "ran after " + ms + " ms");
            assertEquals(0, r.carriers().orElseThrow().compensations(),
                    "the JDK compensated the pipe reads itself, as on its own scheduler; the watch had nothing to do");
            threads.close();
        } finally {
            children.forEach(Process::destroyForcibly);
        }
    }

    /**
     * N readers block in a FIFO's open(2) and read(2) (FileInputStream: the JDK does not compensate
     * it), and their writer is a virtual thread queued behind them. At 17cfbe1 N = 8 on two carriers and
     * N = 3 on one never finished: the pool's parallelism grew, but no carrier started.
     */
    @Test
    void eight_fifo_readers_on_two_carriers_get_the_bytes_of_a_writer_queued_behind_them() throws Exception {
        fifoReadersGetQueuedWritersBytes(2, 8);
    }

    @Test
    void three_fifo_readers_on_one_carrier_get_the_bytes_of_a_writer_queued_behind_them() throws Exception {
        fifoReadersGetQueuedWritersBytes(1, 3);
    }

    private void fifoReadersGetQueuedWritersBytes(int carriers, int n) throws Exception {
        List<Path> fifos = new ArrayList<>();
        for (int i = 0; i < n; i++) fifos.add(OsBlockedCarrierTest.mkfifo(dir.resolve("fifo-" + carriers + "-" + i)));
        // The executor is not closed on failure: its close would wait for readers that may never run.
        try (GpuReactor r = GpuReactor.builder().carriers(carriers).build()) {
            ExecutorService threads = r.newExecutor();
            List<Future<Integer>> readers = new ArrayList<>();
            for (Path fifo : fifos) {
                readers.add(threads.submit(() -> {
                    try (FileInputStream in = new FileInputStream(fifo.toFile())) { return in.read(); }
                }));
            }
            Thread.sleep(100); // the readers take the carriers and block; the writer queues behind them
            Future<?> writer = threads.submit(() -> {
                for (Path fifo : fifos) {
                    try (FileOutputStream out = new FileOutputStream(fifo.toFile())) { out.write(7); }
                }
                return null;
            });
            try {
                writer.get(HANG_BOUND_S, TimeUnit.SECONDS);
                for (Future<Integer> f : readers) assertEquals(7, f.get(HANG_BOUND_S, TimeUnit.SECONDS));
            } catch (java.util.concurrent.TimeoutException e) {
                for (Path fifo : fifos) { // an O_RDWR open of a FIFO never blocks (Linux): the readers get their byte
                    try (java.io.RandomAccessFile out = new java.io.RandomAccessFile(fifo.toFile(), "rw")) { out.write(0); } catch (Exception ignored) { }
                }
                fail(n + " FIFO readers on " + carriers + " carrier(s) stalled the writer queued behind them ("
                        + r.carriers().orElseThrow().compensations() + " compensations, "
                        + r.carriers().orElseThrow().threads() + " carrier threads)");
            }
            threads.close();
        }
    }

    /** The holder of {@link #MONITOR}: it unmounts inside it, then waits for the test. */
    private static final Object MONITOR = new Object();

    /** An upcall's body: enters {@link #MONITOR} below a native frame, so the thread is pinned while it blocks. */
    static int enterPinned(MemorySegment a, MemorySegment b) {
        synchronized (MONITOR) {
            return 0;
        }
    }

    /**
     * A hundred virtual threads pinned in a native frame (a libc qsort calling back into Java) and
     * BLOCKED on a monitor whose holder is a virtual thread queued behind them: the JDK does not
     * compensate these; the watch does, one spare per blocked carrier, and the holder runs. At 17cfbe1 a
     * pool of this kind deadlocked at 8 carriers. (Past the pool's maximum size, 256, such a program
     * deadlocks here as on the JDK's scheduler: the bound is the JDK's.)
     */
    @Test
    void a_hundred_threads_pinned_on_a_monitor_whose_holder_is_queued_behind_them_all_get_it() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle qsort = linker.downcallHandle(linker.defaultLookup().find("qsort").orElseThrow(),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
        MethodHandle body = MethodHandles.lookup().findStatic(BlockingCarriersTest.class, "enterPinned",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
        // Never freed: a deadlocked thread on a failing run may still be inside the upcall.
        Arena arena = Arena.global();
        try (GpuReactor r = GpuReactor.builder().carriers(2).build()) {
            ExecutorService threads = r.newExecutor(); // closed on success only: on failure its threads stay deadlocked
            MemorySegment compare = linker.upcallStub(body, FunctionDescriptor.of(ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.ADDRESS), arena);
            MemorySegment two = arena.allocate(ValueLayout.JAVA_INT, 2); // two elements: qsort compares once
            CountDownLatch holding = new CountDownLatch(1), release = new CountDownLatch(1);
            Future<?> holder = threads.submit(() -> {
                synchronized (MONITOR) {
                    holding.countDown();
                    release.await(); // unmounts holding the monitor (JEP 491)
                }
                return null;
            });
            assertTrue(holding.await(HANG_BOUND_S, TimeUnit.SECONDS));
            List<Future<?>> pinned = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                pinned.add(threads.submit(() -> {
                    try {
                        qsort.invokeExact(two, 2L, 4L, compare);
                    } catch (Throwable t) {
                        throw new AssertionError(t);
                    }
                    return null;
                }));
            }
            Thread.sleep(200); // the pinned threads take the carriers and block on the monitor
            release.countDown(); // the holder's resume queues behind them
            try {
                holder.get(HANG_BOUND_S, TimeUnit.SECONDS);
                for (Future<?> f : pinned) f.get(HANG_BOUND_S, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                fail("the pinned threads deadlocked the pool (" + r.carriers().orElseThrow().compensations()
                        + " compensations, " + r.carriers().orElseThrow().threads() + " carrier threads)");
            }
            assertTrue(r.carriers().orElseThrow().compensations() >= 1, "the watch compensated");
            threads.close();
        }
    }

    /**
     * After a burst of five blocked readers, one of which stays blocked, CPU-bound threads run no more
     * than the parallelism at once, and the spare carriers leave after their keep-alive. At 17cfbe1 the
     * pool's parallelism stayed at 7 while the one reader blocked, and six CPU-bound threads ran at once
     * on two cores; the spares never left under light load.
     */
    @Test
    void after_a_burst_of_blocked_readers_the_pool_runs_its_parallelism_and_the_spares_leave() throws Exception {
        List<Path> fifos = new ArrayList<>();
        for (int i = 0; i < 5; i++) fifos.add(OsBlockedCarrierTest.mkfifo(dir.resolve("burst-" + i)));
        // A keep-alive longer than the CPU-bound phase: while idle carriers time out, the JDK's ForkJoinPool
        // wakes the next idle one as it trims (its cascade), which may run one more task for a moment.
        CarrierPool pool = new CarrierPool(2, 256, Duration.ofSeconds(3), w -> { });
        ThreadFactory factory = pool.threadFactory(VirtualThreads.builder(pool));
        try {
            List<Thread> readers = new ArrayList<>();
            for (Path fifo : fifos) {
                Thread t = factory.newThread(() -> {
                    try (FileInputStream in = new FileInputStream(fifo.toFile())) { in.read(); } catch (Exception e) { throw new AssertionError(e); }
                });
                t.start();
                readers.add(t);
            }
            // A task queued behind the readers, so that the watch compensates them.
            CountDownLatch ran = new CountDownLatch(1);
            factory.newThread(ran::countDown).start();
            assertTrue(ran.await(HANG_BOUND_S, TimeUnit.SECONDS), "the queued task ran");
            for (int i = 1; i < 5; i++) { // four of the five readers end; the first stays blocked
                try (FileOutputStream out = new FileOutputStream(fifos.get(i).toFile())) { out.write(1); }
                readers.get(i).join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
                assertFalse(readers.get(i).isAlive());
            }
            Thread.sleep(200); // the watch gives back what it no longer needs

            long compensatedBefore = pool.compensations();
            String stateBefore = pool.carriersState();
            AtomicInteger running = new AtomicInteger(), most = new AtomicInteger();
            List<Thread> computing = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                Thread t = factory.newThread(() -> {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    long end = System.nanoTime() + 150_000_000;
                    while (System.nanoTime() < end) Thread.onSpinWait();
                    running.decrementAndGet();
                });
                t.start();
                computing.add(t);
            }
            for (Thread t : computing) t.join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
            assertTrue(most.get() <= 2, "CPU-bound threads ran " + most.get() + " at once on a pool of parallelism 2 (compensations "
                    + compensatedBefore + " before them, " + pool.compensations() + " after; " + stateBefore + ")");

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_BOUND_S);
            while (pool.threads() > 3 && System.nanoTime() < deadline) Thread.sleep(50); // 2, and the blocked reader's own
            assertTrue(pool.threads() <= 3, "the spares left after their keep-alive: " + pool.threads() + " carrier threads");

            try (FileOutputStream out = new FileOutputStream(fifos.get(0).toFile())) { out.write(1); }
            readers.get(0).join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
            assertFalse(readers.get(0).isAlive());
        } finally {
            pool.close(Duration.ofSeconds(5));
        }
    }

    /**
     * A closed reactor whose one virtual thread stays parked keeps its watch while the thread lives (it
     * may resume and block where only the watch compensates: AfterCloseCompensationTest), its carriers
     * leave after their keep-alive, the parked thread still runs when unparked, and its end takes the
     * watch with it. At 17cfbe1 each such reactor kept its watch for ever; until the after-close fix it
     * left at the close, and a thread resumed later lost its compensation.
     */
    @Test
    void a_closed_pool_with_a_parked_thread_keeps_its_watch_until_the_thread_ends_and_still_runs_it() throws Exception {
        CarrierPool pool = new CarrierPool(2, 256, Duration.ofMillis(500), w -> { });
        ThreadFactory factory = pool.threadFactory(VirtualThreads.builder(pool));
        CountDownLatch parked = new CountDownLatch(1), ended = new CountDownLatch(1);
        Thread consumer = factory.newThread(() -> {
            parked.countDown();
            LockSupport.park(); // a consumer nobody stopped
            ended.countDown();
        });
        consumer.start();
        assertTrue(parked.await(HANG_BOUND_S, TimeUnit.SECONDS));
        assertFalse(pool.close(Duration.ofMillis(100)), "the parked thread is live: not retired");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_BOUND_S);
        while (pool.threads() > 0 && System.nanoTime() < deadline) Thread.sleep(50);
        assertEquals(0, pool.threads(), "the carriers of a closed pool left after their keep-alive");
        assertFalse(pool.watchHasLeft(), "the watch of a closed pool stays while a thread of it lives");

        LockSupport.unpark(consumer);
        assertTrue(ended.await(HANG_BOUND_S, TimeUnit.SECONDS), "the parked thread of a closed pool still runs when unparked");
        assertTrue(pool.awaitExit(Duration.ofSeconds(HANG_BOUND_S)), "its end retires the pool");
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_BOUND_S);
        while (!pool.watchHasLeft() && System.nanoTime() < deadline) Thread.sleep(10);
        assertTrue(pool.watchHasLeft(), "the watch left with the retirement");
    }

    /**
     * The same through reactors, many at once, as a user who forgets a consumer in each: each watch stays
     * while its consumer lives, and none stays once they end.
     */
    @Test
    void five_closed_reactors_with_a_parked_thread_each_leave_no_watch_thread_once_it_ends() throws Exception {
        assumeTrue(VirtualThreads.capability().missing().isEmpty(),
                "no carrier pool here (java.lang not opened): the reactors would run on the JDK's scheduler, which has no"
                + " watch to leave; the pool-level case above tests the same on a pool made directly");
        long before = watchThreads(); // other tests' open reactors, if any
        List<Thread> consumers = new ArrayList<>();
        for (int i = 0; i < 5; i++) { // each close waits its grace for the parked thread
            GpuReactor r = GpuReactor.builder().carriers(1).warnings(w -> { }).build();
            CountDownLatch parked = new CountDownLatch(1);
            Thread t = r.threadFactory().newThread(() -> {
                parked.countDown();
                LockSupport.park();
            });
            t.start();
            assertTrue(parked.await(HANG_BOUND_S, TimeUnit.SECONDS));
            consumers.add(t);
            r.close();
        }
        assertTrue(watchThreads() >= 5, "each closed reactor keeps its watch while its consumer lives"); // 5: ours, whatever the others do
        consumers.forEach(LockSupport::unpark);
        for (Thread t : consumers) t.join(TimeUnit.SECONDS.toMillis(HANG_BOUND_S));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_BOUND_S);
        while (watchThreads() > before && System.nanoTime() < deadline) Thread.sleep(50);
        assertEquals(before, watchThreads(), "closed reactors left carrier-watch threads behind once their threads ended");
    }

    private static long watchThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("gar-carrier-watch")).count();
    }
}
