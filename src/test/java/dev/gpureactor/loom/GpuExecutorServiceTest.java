package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Phaser;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The lifecycle of {@link GpuExecutorService}, tested the way the JDK tests its thread-per-task
 * executors (test/jdk/java/util/concurrent/ThreadPerTaskExecutor): every task on a new virtual
 * thread, here on the reactor's own carriers; shutdown, shutdownNow, awaitTermination, close;
 * invokeAll/invokeAny; nulls. No timing assertions: waits that must not end are bounded only to
 * show that they did not end, and every other wait is a generous hang guard.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GpuExecutorServiceTest {
    private static final long GUARD_S = 60;

    /** A long, interruptible task. */
    private static final Callable<Void> SLEEP_FOR_A_DAY = () -> {
        Thread.sleep(Duration.ofDays(1));
        return null;
    };

    private GpuReactor reactor;

    @BeforeEach
    void open() {
        reactor = GpuReactor.builder().carriers(2).build();
        assertTrue(reactor.carriers().isPresent(), "the surefire JVM opens java.lang: the carrier pool runs");
    }

    @AfterEach
    void close() {
        reactor.close();
    }

    /** Whether the calling thread is a virtual thread mounted on one of this library's carriers. */
    private static boolean onOurCarrier() {
        Thread t = Thread.currentThread();
        return t.isVirtual() && t.toString().contains("@gar-carrier-");
    }

    @Test
    void each_task_runs_on_its_own_new_virtual_thread_on_the_reactor_carriers() throws Exception {
        int n = 200;
        List<Future<Thread>> submitted = new ArrayList<>();
        List<Thread> executed = new ArrayList<>();
        CountDownLatch ran = new CountDownLatch(n);
        AtomicReference<String> wrongCarrier = new AtomicReference<>();
        GpuExecutorService exec = reactor.newExecutor();
        try (exec) {
            for (int i = 0; i < n; i++) {
                submitted.add(exec.submit(() -> {
                    if (!onOurCarrier()) wrongCarrier.set(Thread.currentThread().toString());
                    return Thread.currentThread();
                }));
                exec.execute(() -> {
                    if (!onOurCarrier()) wrongCarrier.set(Thread.currentThread().toString());
                    synchronized (executed) {
                        executed.add(Thread.currentThread());
                    }
                    ran.countDown();
                });
            }
            assertTrue(ran.await(GUARD_S, TimeUnit.SECONDS));
        }
        assertTrue(exec.isTerminated(), "close() waited for every task");
        assertNull(wrongCarrier.get(), "a task ran off the reactor's carriers");
        Set<Thread> distinct = new HashSet<>(executed);
        for (Future<Thread> f : submitted) {
            Thread t = f.resultNow();
            assertTrue(t.isVirtual());
            distinct.add(t);
        }
        assertEquals(2 * n, distinct.size(), "one new thread per task");
    }

    @Test
    void shutdown_rejects_new_tasks_while_running_ones_finish() throws Exception {
        GpuExecutorService exec = reactor.newExecutor();
        Phaser barrier = new Phaser(2);
        try (exec) {
            assertFalse(exec.isShutdown());
            assertFalse(exec.isTerminated());
            assertFalse(exec.awaitTermination(10, TimeUnit.MILLISECONDS), "not shut down: never terminated");

            Future<String> running = exec.submit(() -> {
                barrier.arriveAndAwaitAdvance();
                return "finished after shutdown";
            });
            exec.shutdown();
            assertTrue(exec.isShutdown());
            assertFalse(exec.isTerminated());
            assertThrows(RejectedExecutionException.class, () -> exec.submit(() -> "late"));
            assertThrows(RejectedExecutionException.class, () -> exec.execute(() -> { }));
            assertThrows(RejectedExecutionException.class, () -> exec.invokeAll(List.of(() -> "late")));
            assertThrows(RejectedExecutionException.class, () -> exec.invokeAny(List.of(() -> "late")));
            assertFalse(exec.awaitTermination(100, TimeUnit.MILLISECONDS), "a task is still running");
            assertFalse(running.isDone());

            barrier.arriveAndAwaitAdvance();
            assertEquals("finished after shutdown", running.get(GUARD_S, TimeUnit.SECONDS));
            assertTrue(exec.awaitTermination(GUARD_S, TimeUnit.SECONDS));
            assertTrue(exec.isTerminated());
        }
    }

    @Test
    void shutdown_of_an_idle_executor_terminates_at_once() throws Exception {
        GpuExecutorService exec = reactor.newExecutor();
        exec.shutdown();
        assertTrue(exec.isShutdown());
        assertTrue(exec.isTerminated());
        assertTrue(exec.awaitTermination(0, TimeUnit.MILLISECONDS));
        assertThrows(RejectedExecutionException.class, () -> exec.submit(() -> { }));
    }

    @Test
    void shutdownNow_interrupts_running_tasks_including_a_gpu_wait() throws Exception {
        try (SimDevice dev = SimDevice.open()) {
            SimStream s = dev.stream();
            CountDownLatch never = new CountDownLatch(1);
            s.compute(Duration.ZERO, () -> awaitQuietly(never)); // the device stands still until the test ends
            SimStream.Signal sig = s.signal();
            GpuFuture<Void> gpu = reactor.await(sig.descriptor(), sig.port());

            GpuExecutorService exec = reactor.newExecutor();
            CountDownLatch started = new CountDownLatch(2);
            Future<?> sleeper = exec.submit(() -> {
                started.countDown();
                return SLEEP_FOR_A_DAY.call();
            });
            AtomicBoolean flagKept = new AtomicBoolean();
            Future<?> joiner = exec.submit(() -> {
                started.countDown();
                try {
                    return gpu.join();
                } finally {
                    flagKept.set(Thread.currentThread().isInterrupted());
                }
            });
            assertTrue(started.await(GUARD_S, TimeUnit.SECONDS));

            List<Runnable> neverStarted = exec.shutdownNow();
            assertTrue(neverStarted.isEmpty(), "a thread per task: nothing is ever queued");
            assertTrue(exec.isShutdown());

            ExecutionException e1 = assertThrows(ExecutionException.class, () -> sleeper.get(GUARD_S, TimeUnit.SECONDS));
            assertInstanceOf(InterruptedException.class, e1.getCause());
            ExecutionException e2 = assertThrows(ExecutionException.class, () -> joiner.get(GUARD_S, TimeUnit.SECONDS));
            ReactorException re = assertInstanceOf(ReactorException.class, e2.getCause());
            assertEquals(ErrorCode.Interrupted, re.code());
            assertTrue(flagKept.get(), "join() leaves the interrupt flag set");
            assertFalse(gpu.isDone(), "the interrupt ended the joiner's wait, not the future");
            assertTrue(gpu.cancel(false));

            assertTrue(exec.awaitTermination(GUARD_S, TimeUnit.SECONDS));
            assertTrue(exec.isTerminated());
            awaitNoRegistrations(reactor);
            never.countDown();
        }
    }

    @Test
    void awaitTermination_is_false_on_timeout_and_true_after_the_last_task_ends() throws Exception {
        GpuExecutorService exec = reactor.newExecutor();
        assertFalse(exec.awaitTermination(50, TimeUnit.MILLISECONDS), "not shut down");
        Phaser barrier = new Phaser(2);
        Future<?> task = exec.submit(barrier::arriveAndAwaitAdvance);
        exec.shutdown();
        assertFalse(exec.awaitTermination(50, TimeUnit.MILLISECONDS), "the task still runs");
        assertFalse(exec.isTerminated());
        barrier.arriveAndAwaitAdvance();
        assertTrue(exec.awaitTermination(GUARD_S, TimeUnit.SECONDS));
        assertTrue(exec.isTerminated());
        assertTrue(task.isDone());
    }

    @Test
    void close_waits_for_running_tasks() throws Exception {
        GpuExecutorService exec = reactor.newExecutor();
        Future<String> f;
        try (exec) {
            f = exec.submit(() -> {
                Thread.sleep(Duration.ofMillis(50));
                return "foo";
            });
        }
        assertTrue(exec.isShutdown());
        assertTrue(exec.isTerminated());
        assertTrue(exec.awaitTermination(0, TimeUnit.MILLISECONDS));
        assertEquals("foo", f.resultNow(), "close() returned only after the task ended");
        exec.close(); // already closed: returns
    }

    @Test
    void close_with_the_interrupt_flag_set_interrupts_the_tasks_and_keeps_the_flag() throws Exception {
        GpuExecutorService exec = reactor.newExecutor();
        Future<?> f;
        try (exec) {
            f = exec.submit(SLEEP_FOR_A_DAY);
            Thread.currentThread().interrupt();
        } finally {
            assertTrue(Thread.interrupted(), "close() restores the interrupt");
        }
        assertTrue(exec.isTerminated());
        ExecutionException e = assertThrows(ExecutionException.class, f::get);
        assertInstanceOf(InterruptedException.class, e.getCause());
    }

    @Test
    void close_from_inside_one_of_its_own_tasks_shuts_down_without_waiting_for_itself() throws Exception {
        GpuExecutorService exec = reactor.newExecutor();
        Phaser other = new Phaser(2);
        Future<?> sibling = exec.submit(other::arriveAndAwaitAdvance);
        Future<String> closer = exec.submit(() -> {
            exec.close(); // waiting for itself would never end
            return exec.isShutdown() ? "shut down" : "still open";
        });
        assertEquals("shut down", closer.get(GUARD_S, TimeUnit.SECONDS));
        assertThrows(RejectedExecutionException.class, () -> exec.submit(() -> { }));
        assertFalse(exec.isTerminated(), "the sibling still runs");
        other.arriveAndAwaitAdvance();
        sibling.get(GUARD_S, TimeUnit.SECONDS);
        assertTrue(exec.awaitTermination(GUARD_S, TimeUnit.SECONDS));
    }

    @Test
    void invokeAll_returns_every_outcome_in_order() throws Exception {
        try (GpuExecutorService exec = reactor.newExecutor()) {
            class FooException extends Exception {
                private static final long serialVersionUID = 1L;
            }
            List<Callable<String>> tasks = List.of(
                    () -> "foo",
                    () -> {
                        Thread.sleep(Duration.ofMillis(20));
                        return onOurCarrier() ? "bar" : "wrong carrier";
                    },
                    () -> { throw new FooException(); });
            List<Future<String>> out = exec.invokeAll(tasks);
            assertEquals(3, out.size());
            assertTrue(out.stream().allMatch(Future::isDone));
            assertEquals("foo", out.get(0).resultNow());
            assertEquals("bar", out.get(1).resultNow());
            assertInstanceOf(FooException.class, assertThrows(ExecutionException.class, () -> out.get(2).get()).getCause());
        }
    }

    @Test
    void timed_invokeAll_cancels_and_interrupts_what_did_not_finish() throws Exception {
        try (GpuExecutorService exec = reactor.newExecutor()) {
            AtomicReference<Exception> slow = new AtomicReference<>();
            CountDownLatch slowEnded = new CountDownLatch(1);
            Callable<String> fast = () -> "foo";
            Callable<String> forever = () -> {
                try {
                    Thread.sleep(Duration.ofDays(1));
                    return "bar";
                } catch (Exception e) {
                    slow.set(e);
                    throw e;
                } finally {
                    slowEnded.countDown();
                }
            };
            List<Future<String>> out = exec.invokeAll(List.of(fast, forever), 200, TimeUnit.MILLISECONDS);
            assertEquals("foo", out.get(0).get());
            assertTrue(out.get(1).isCancelled());
            assertThrows(CancellationException.class, () -> out.get(1).get());
            // The slow task started (a thread per task starts at once), so the cancel interrupted it.
            assertTrue(slowEnded.await(GUARD_S, TimeUnit.SECONDS));
            assertInstanceOf(InterruptedException.class, slow.get());
        }
    }

    @Test
    void invokeAny_returns_a_success_and_interrupts_the_rest() throws Exception {
        try (GpuExecutorService exec = reactor.newExecutor()) {
            class FooException extends Exception {
                private static final long serialVersionUID = 1L;
            }
            AtomicBoolean slowStarted = new AtomicBoolean();
            AtomicReference<Exception> slowEnded = new AtomicReference<>();
            Callable<String> quick = () -> "foo";
            Callable<String> failing = () -> { throw new FooException(); };
            Callable<String> slow = () -> {
                slowStarted.set(true);
                try {
                    Thread.sleep(Duration.ofDays(1));
                } catch (Exception e) {
                    slowEnded.set(e);
                }
                return "bar";
            };
            assertEquals("foo", exec.invokeAny(List.of(quick, failing, slow)));
            if (slowStarted.get()) {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
                while (slowEnded.get() == null && System.nanoTime() < end) Thread.sleep(5);
                assertInstanceOf(InterruptedException.class, slowEnded.get());
            }

            ExecutionException all = assertThrows(ExecutionException.class, () -> exec.invokeAny(List.of(failing, failing)));
            assertInstanceOf(FooException.class, all.getCause());

            assertThrows(TimeoutException.class, () -> exec.invokeAny(List.of(() -> SLEEP_FOR_A_DAY.call()), 50, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void nulls_and_empty_collections_are_refused() throws Exception {
        try (GpuExecutorService exec = reactor.newExecutor()) {
            assertThrows(NullPointerException.class, () -> exec.execute(null));
            assertThrows(NullPointerException.class, () -> exec.submit((Runnable) null));
            assertThrows(NullPointerException.class, () -> exec.submit((Callable<String>) null));
            assertThrows(NullPointerException.class, () -> exec.submit(null, "result"));
            assertThrows(NullPointerException.class, () -> exec.invokeAll(null));
            assertThrows(NullPointerException.class, () -> exec.invokeAll(null, 1, TimeUnit.SECONDS));
            List<Callable<String>> withNull = new ArrayList<>();
            withNull.add(() -> "foo");
            withNull.add(null);
            assertThrows(NullPointerException.class, () -> exec.invokeAll(withNull));
            assertThrows(NullPointerException.class, () -> exec.invokeAny(null));
            List<Callable<String>> nullFirst = new ArrayList<>();
            nullFirst.add(null); // first: a later null could be skipped once "foo" has won
            nullFirst.add(() -> "foo");
            assertThrows(NullPointerException.class, () -> exec.invokeAny(nullFirst));
            assertThrows(NullPointerException.class, () -> exec.awaitTermination(1, null));
            Collection<Callable<String>> empty = List.of();
            assertThrows(IllegalArgumentException.class, () -> exec.invokeAny(empty));
            assertTrue(exec.invokeAll(empty).isEmpty());
        }
    }

    @Test
    void a_task_submitted_after_the_reactor_closed_is_rejected_and_the_executor_still_terminates() throws Exception {
        GpuExecutorService exec = reactor.newExecutor();
        assertEquals("before", exec.submit(() -> "before").get(GUARD_S, TimeUnit.SECONDS));
        reactor.close(); // the carriers are gone: no thread can start
        assertThrows(RejectedExecutionException.class, () -> exec.submit(() -> "after"));
        assertThrows(RejectedExecutionException.class, () -> exec.execute(() -> { }));
        exec.shutdown();
        assertTrue(exec.awaitTermination(GUARD_S, TimeUnit.SECONDS), "a thread that never started is not waited for");
        exec.close();
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void awaitNoRegistrations(GpuReactor r) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
        while (r.registrations() != 0 && System.nanoTime() < end) Thread.sleep(2);
        assertEquals(0, r.registrations(), "every registration was removed");
    }
}
