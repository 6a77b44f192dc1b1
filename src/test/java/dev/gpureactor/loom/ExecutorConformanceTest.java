package dev.gpureactor.loom;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link GpuReactor#newExecutor()} against {@link Executors#newVirtualThreadPerTaskExecutor()}, side
 * by side: every test runs on both and asserts the same outcome, so whatever the JDK's executor
 * does, ours does. No timing thresholds: bounds are hang guards, and "does not finish" waits only
 * show that something did not happen yet.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExecutorConformanceTest {
    private static final long GUARD_S = 60;
    private static GpuReactor reactor;

    /** The two executors under test. */
    enum Kind {
        JDK(Executors::newVirtualThreadPerTaskExecutor),
        GPU_REACTOR(() -> reactor.newExecutor());

        private final Supplier<ExecutorService> make;

        Kind(Supplier<ExecutorService> make) { this.make = make; }

        ExecutorService open() { return make.get(); }
    }

    @BeforeAll
    static void openReactor() {
        reactor = GpuReactor.builder().carriers(2).build();
    }

    @AfterAll
    static void closeReactor() {
        reactor.close();
    }

    private static final Callable<String> SLEEP_FOR_A_DAY = () -> {
        Thread.sleep(Duration.ofDays(1));
        return "woke";
    };

    @ParameterizedTest
    @EnumSource(Kind.class)
    void submit_runs_and_get_returns_the_value(Kind kind) throws Exception {
        try (ExecutorService e = kind.open()) {
            Future<String> f = e.submit(() -> "v");
            assertEquals("v", f.get(GUARD_S, TimeUnit.SECONDS));
            assertEquals(Future.State.SUCCESS, f.state());
            Future<?> r = e.submit(() -> { });
            assertNull(r.get(GUARD_S, TimeUnit.SECONDS));
            Future<String> failing = e.submit(() -> { throw new IllegalStateException("boom"); });
            ExecutionException ee = assertThrows(ExecutionException.class, () -> failing.get(GUARD_S, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, ee.getCause());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void invokeAll_waits_for_every_task_and_keeps_their_order(Kind kind) throws Exception {
        try (ExecutorService e = kind.open()) {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                int v = i;
                tasks.add(() -> {
                    if (v == 7) throw new IllegalArgumentException("seven");
                    Thread.sleep(v % 3);
                    return v;
                });
            }
            List<Future<Integer>> fs = e.invokeAll(tasks);
            assertEquals(20, fs.size());
            for (int i = 0; i < 20; i++) {
                assertTrue(fs.get(i).isDone());
                if (i == 7) assertEquals(Future.State.FAILED, fs.get(i).state());
                else assertEquals(i, fs.get(i).resultNow());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void timed_invokeAll_cancels_what_did_not_finish(Kind kind) throws Exception {
        try (ExecutorService e = kind.open()) {
            List<Future<String>> fs = e.invokeAll(List.of(() -> "quick", SLEEP_FOR_A_DAY), 100, TimeUnit.MILLISECONDS);
            assertEquals("quick", fs.get(0).resultNow());
            assertTrue(fs.get(1).isCancelled());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void invokeAll_with_the_interrupt_set_throws_and_cancels(Kind kind) throws Exception {
        try (ExecutorService e = kind.open()) {
            Thread.currentThread().interrupt();
            try {
                assertThrows(InterruptedException.class, () -> e.invokeAll(List.of(SLEEP_FOR_A_DAY, SLEEP_FOR_A_DAY)));
            } finally {
                Thread.interrupted();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void invokeAny_returns_a_success_and_interrupts_the_others(Kind kind) throws Exception {
        try (ExecutorService e = kind.open()) {
            CountDownLatch slowInterrupted = new CountDownLatch(1);
            Callable<String> slow = () -> {
                try {
                    Thread.sleep(Duration.ofDays(1));
                } catch (InterruptedException ie) {
                    slowInterrupted.countDown();
                }
                return "slow";
            };
            Callable<String> failing = () -> { throw new IllegalStateException("no"); };
            assertEquals("fast", e.invokeAny(List.of(slow, failing, () -> "fast")));
            assertTrue(slowInterrupted.await(GUARD_S, TimeUnit.SECONDS), "the slow task was interrupted");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void invokeAny_with_the_interrupt_set_always_throws(Kind kind) throws Exception {
        try (ExecutorService e = kind.open()) {
            for (int i = 0; i < 200; i++) {
                Thread.currentThread().interrupt();
                try {
                    assertThrows(InterruptedException.class, () -> e.invokeAny(List.of(() -> 1)), "call " + i);
                } finally {
                    Thread.interrupted();
                }
                Thread.currentThread().interrupt();
                try {
                    assertThrows(InterruptedException.class, () -> e.invokeAny(List.of(() -> 1), 1, TimeUnit.DAYS), "timed " + i);
                } finally {
                    Thread.interrupted();
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void invokeAny_when_all_fail_throws_an_ExecutionException_with_one_cause(Kind kind) throws Exception {
        try (ExecutorService e = kind.open()) {
            Callable<String> a = () -> { throw new IllegalStateException("a"); };
            Callable<String> b = () -> { throw new IllegalArgumentException("b"); };
            ExecutionException ee = assertThrows(ExecutionException.class, () -> e.invokeAny(List.of(a, b)));
            assertTrue(ee.getCause() instanceof IllegalStateException || ee.getCause() instanceof IllegalArgumentException);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void timed_invokeAny_with_one_slow_task_times_out(Kind kind) throws Exception {
        try (ExecutorService e = kind.open()) {
            assertThrows(TimeoutException.class, () -> e.invokeAny(List.of(SLEEP_FOR_A_DAY), 50, TimeUnit.MILLISECONDS));
            assertEquals("fast", e.invokeAny(List.of(SLEEP_FOR_A_DAY, () -> "fast"), GUARD_S, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void invokeAny_and_invokeAll_refuse_empty_and_null(Kind kind) throws Exception {
        try (ExecutorService e = kind.open()) {
            assertThrows(IllegalArgumentException.class, () -> e.invokeAny(List.<Callable<String>>of()));
            assertThrows(NullPointerException.class, () -> e.invokeAny(null));
            assertThrows(NullPointerException.class, () -> e.invokeAll(null));
            assertEquals(List.of(), e.invokeAll(List.<Callable<String>>of()));
            assertThrows(NullPointerException.class, () -> e.submit((Runnable) null));
            assertThrows(NullPointerException.class, () -> e.execute(null));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shutdown_rejects_new_tasks_and_terminates_after_the_running_ones(Kind kind) throws Exception {
        ExecutorService e = kind.open();
        CountDownLatch release = new CountDownLatch(1);
        Future<String> running = e.submit(() -> {
            release.await();
            return "ran";
        });
        e.shutdown();
        assertTrue(e.isShutdown());
        assertFalse(e.isTerminated(), "a task still runs");
        assertFalse(e.awaitTermination(10, TimeUnit.MILLISECONDS));
        assertThrows(RejectedExecutionException.class, () -> e.submit(() -> "late"));
        assertThrows(RejectedExecutionException.class, () -> e.execute(() -> { }));
        assertThrows(RejectedExecutionException.class, () -> e.invokeAny(List.of(() -> "late")));
        release.countDown();
        assertEquals("ran", running.get(GUARD_S, TimeUnit.SECONDS));
        assertTrue(e.awaitTermination(GUARD_S, TimeUnit.SECONDS));
        assertTrue(e.isTerminated());
        e.close(); // terminated: returns at once
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void an_idle_executor_terminates_at_shutdown(Kind kind) throws Exception {
        ExecutorService e = kind.open();
        assertFalse(e.isShutdown());
        assertFalse(e.isTerminated());
        e.shutdown();
        assertTrue(e.isTerminated());
        assertTrue(e.awaitTermination(0, TimeUnit.SECONDS));
        e.shutdown(); // again: nothing changes
        assertTrue(e.isTerminated());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shutdownNow_interrupts_the_running_tasks(Kind kind) throws Exception {
        ExecutorService e = kind.open();
        CountDownLatch running = new CountDownLatch(1);
        Future<String> f = e.submit(() -> {
            running.countDown();
            return SLEEP_FOR_A_DAY.call(); // an interrupt before the sleep still ends it
        });
        assertTrue(running.await(GUARD_S, TimeUnit.SECONDS));
        assertEquals(List.of(), e.shutdownNow());
        assertTrue(e.isShutdown());
        assertTrue(e.awaitTermination(GUARD_S, TimeUnit.SECONDS));
        ExecutionException ee = assertThrows(ExecutionException.class, () -> f.get(GUARD_S, TimeUnit.SECONDS));
        assertInstanceOf(InterruptedException.class, ee.getCause());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void cancel_true_interrupts_a_submitted_task(Kind kind) throws Exception {
        try (ExecutorService e = kind.open()) {
            CountDownLatch sleeping = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            Future<?> f = e.submit(() -> {
                sleeping.countDown();
                try {
                    Thread.sleep(Duration.ofDays(1));
                } catch (InterruptedException ie) {
                    interrupted.countDown();
                }
            });
            assertTrue(sleeping.await(GUARD_S, TimeUnit.SECONDS));
            assertTrue(f.cancel(true));
            assertTrue(interrupted.await(GUARD_S, TimeUnit.SECONDS));
            assertThrows(CancellationException.class, f::get);
            assertEquals(Future.State.CANCELLED, f.state());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void close_waits_for_the_tasks_and_an_interrupted_close_interrupts_them(Kind kind) throws Exception {
        ExecutorService e = kind.open();
        AtomicBoolean finished = new AtomicBoolean();
        e.submit(() -> {
            Thread.sleep(50);
            finished.set(true);
            return null;
        });
        e.close();
        assertTrue(finished.get(), "close returned before its task ended");
        assertTrue(e.isTerminated());

        ExecutorService e2 = kind.open();
        CountDownLatch sleeping = new CountDownLatch(1);
        Future<String> f = e2.submit(() -> {
            sleeping.countDown();
            return SLEEP_FOR_A_DAY.call();
        });
        assertTrue(sleeping.await(GUARD_S, TimeUnit.SECONDS));
        AtomicBoolean interruptKept = new AtomicBoolean();
        Thread closer = Thread.ofPlatform().start(() -> {
            Thread.currentThread().interrupt(); // close interrupted: it interrupts the tasks and still waits
            e2.close();
            interruptKept.set(Thread.currentThread().isInterrupted());
        });
        assertTrue(closer.join(Duration.ofSeconds(GUARD_S)));
        assertTrue(interruptKept.get(), "close re-asserts the interrupt");
        assertTrue(e2.isTerminated());
        assertInstanceOf(InterruptedException.class, assertThrows(ExecutionException.class, f::get).getCause());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shutdown_from_inside_a_task_lets_it_finish(Kind kind) throws Exception {
        ExecutorService e = kind.open();
        Future<String> f = e.submit(() -> {
            e.shutdown();
            Thread.sleep(5);
            return "after";
        });
        assertEquals("after", f.get(GUARD_S, TimeUnit.SECONDS));
        assertTrue(e.awaitTermination(GUARD_S, TimeUnit.SECONDS));
    }

    /**
     * Close from inside one of its own tasks: ours shuts down and returns (the task then ends and
     * the executor terminates). The JDK's executor waits for its own task for ever there, so this
     * one runs on ours alone.
     */
    @Test
    void close_from_inside_a_task_shuts_down_and_returns() throws Exception {
        ExecutorService e = reactor.newExecutor();
        AtomicReference<Boolean> shutdownSeen = new AtomicReference<>();
        Future<String> f = e.submit(() -> {
            e.close();
            shutdownSeen.set(e.isShutdown());
            return "returned";
        });
        assertEquals("returned", f.get(GUARD_S, TimeUnit.SECONDS));
        assertTrue(shutdownSeen.get());
        assertTrue(e.awaitTermination(GUARD_S, TimeUnit.SECONDS));
        assertThrows(RejectedExecutionException.class, () -> e.submit(() -> "late"));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void awaitTermination_before_shutdown_times_out_and_is_interruptible(Kind kind) throws Exception {
        ExecutorService e = kind.open();
        try {
            assertFalse(e.awaitTermination(1, TimeUnit.MILLISECONDS));
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> e.awaitTermination(1, TimeUnit.DAYS));
        } finally {
            Thread.interrupted();
            e.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void submit_racing_shutdown_either_runs_or_is_rejected(Kind kind) throws Exception {
        for (int round = 0; round < 50; round++) {
            ExecutorService e = kind.open();
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger accepted = new AtomicInteger();
            Thread submitter = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 100; i++) {
                    try {
                        e.execute(ran::incrementAndGet);
                        accepted.incrementAndGet();
                    } catch (RejectedExecutionException ignored) {
                        // after shutdown
                    }
                }
            });
            e.shutdown();
            assertTrue(submitter.join(Duration.ofSeconds(GUARD_S)));
            assertTrue(e.awaitTermination(GUARD_S, TimeUnit.SECONDS));
            assertEquals(accepted.get(), ran.get(), "every accepted task ran before termination");
        }
    }
}
