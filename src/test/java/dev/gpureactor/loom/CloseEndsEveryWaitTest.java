package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static dev.gpureactor.loom.Poll.until;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link GpuReactor#close()} ends every pending wait with {@code ShutDown} at once, on every kind
 * and joiner path, including those where no parker holds the wait because a thread runs its plan:
 * a platform thread in {@code get()} or {@code join()} under {@code gpu-reactor}, any joiner under
 * {@code naive}, the runner that takes the plan over after a platform joiner's limit. A virtual
 * thread joining the same future is answered too. The device is held on a gate for the whole test,
 * so only the close can end a wait; each path must be answered within {@value #ANSWER_S} s of the
 * close returning.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CloseEndsEveryWaitTest {
    private static final long ANSWER_S = 3;
    private static final String FLAG = "flag:park_us=100,backstop_us=1000";

    /** A thread's answer: the coded failure it got, or what else it got. */
    private static final class Answer {
        final AtomicReference<Object> got = new AtomicReference<>();
        final CountDownLatch answered = new CountDownLatch(1);

        void set(Object o) {
            got.set(o);
            answered.countDown();
        }

        /** The code of the ReactorException the joiner got (directly, or as an ExecutionException's cause). */
        ErrorCode code() {
            Object o = got.get();
            if (o instanceof ExecutionException e) o = e.getCause();
            return o instanceof ReactorException re ? re.code() : null;
        }
    }

    private static final ThreadFactory PLATFORM = Thread.ofPlatform().daemon(true).factory(), VIRTUAL = Thread.ofVirtual().factory();

    private static Answer joinOn(ThreadFactory threads, GpuFuture<Integer> f, boolean viaGet) {
        Answer a = new Answer();
        threads.newThread(() -> {
            try {
                a.set(viaGet ? f.get() : f.join());
            } catch (Throwable t) {
                a.set(t);
            }
        }).start();
        return a;
    }

    private static void assertShutDownSoon(String who, Answer a) throws InterruptedException {
        assertTrue(a.answered.await(ANSWER_S, TimeUnit.SECONDS), who + " was not answered " + ANSWER_S + " s after close");
        assertEquals(ErrorCode.ShutDown, a.code(), who + " got " + a.got.get());
    }

    private static void assertFailedShutDownSoon(GpuFuture<Integer> f) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(ANSWER_S);
        while (!f.isDone() && System.nanoTime() - end < 0) Thread.sleep(2);
        assertEquals(Future.State.FAILED, f.state(), "the future " + ANSWER_S + " s after close: " + f);
        assertEquals(ErrorCode.ShutDown, f.failureCode());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void a_platform_thread_running_the_plan_under_gpu_reactor_is_answered_and_so_is_a_virtual_joiner(boolean viaGet)
            throws Exception {
        GpuReactor r = GpuReactor.builder().carriers(2).plan(FLAG).jmx(false).build();
        CountDownLatch gate = new CountDownLatch(1);
        try (SimDevice dev = SimDevice.open()) {
            SimStream.Signal sig = dev.stream().hold(gate).signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 1);
            until("the parker holds the wait", () -> r.registrations() == 1);
            Answer platform = joinOn(PLATFORM, f, viaGet);
            // The platform joiner takes the plan over: it withdraws the registration, so no parker holds the wait.
            until("the platform joiner runs the plan", () -> r.registrations() == 0);
            Answer virtual = joinOn(VIRTUAL, f, !viaGet);
            r.close();
            assertShutDownSoon("the platform thread in " + (viaGet ? "get()" : "join()"), platform);
            assertShutDownSoon("the virtual joiner", virtual);
            assertFailedShutDownSoon(f);
        } finally {
            gate.countDown();
            r.close();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void any_joiner_under_the_naive_kind_is_answered(boolean platformRunsThePlan) throws Exception {
        GpuReactor r = GpuReactor.builder().kind(ExecutorKind.NAIVE).carriers(2).plan(FLAG).jmx(false).build();
        CountDownLatch gate = new CountDownLatch(1);
        try (SimDevice dev = SimDevice.open()) {
            SimStream.Signal sig = dev.stream().hold(gate).signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 1);
            PlanRuns runs = r.planRuns();
            Answer first = platformRunsThePlan ? joinOn(PLATFORM, f, true)
                    : joinOn(r.threadFactory(), f, false); // a virtual thread on the reactor's carriers
            until("the first joiner runs the plan", () -> runs.size() == 1);
            Answer second = joinOn(VIRTUAL, f, true);
            Answer third = joinOn(PLATFORM, f, false);
            r.close();
            assertShutDownSoon("the joiner running the plan", first);
            assertShutDownSoon("a virtual joiner", second);
            assertShutDownSoon("a platform joiner", third);
            assertFailedShutDownSoon(f);
            assertEquals(0, runs.size());
        } finally {
            gate.countDown();
            r.close();
        }
    }

    /** Under gpu-reactor an interrupted platform joiner gives the wait back to the parker, whose close then ends it. */
    @Test
    void a_wait_a_platform_joiner_gave_back_at_its_interrupt_ends_at_close() throws Exception {
        GpuReactor r = GpuReactor.builder().carriers(2).plan(FLAG).jmx(false).build();
        CountDownLatch gate = new CountDownLatch(1);
        try (SimDevice dev = SimDevice.open()) {
            SimStream.Signal sig = dev.stream().hold(gate).signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 1);
            PlanRuns runs = r.planRuns();
            interruptTheJoinerRunningThePlan(f, runs);
            until("the parker holds the wait again", () -> r.registrations() == 1);
            assertEquals(0, runs.size(), "no runner took the plan over");
            Answer virtual = joinOn(VIRTUAL, f, false);
            r.close();
            assertFailedShutDownSoon(f);
            assertShutDownSoon("the virtual joiner", virtual);
            until("the parker's close counted the wait out", () -> r.registrations() == 0);
        } finally {
            gate.countDown();
            r.close();
        }
    }

    /** Under naive no parker watches: the runner that takes the plan over at the joiner's interrupt ends at close. */
    @Test
    void the_runner_that_took_the_plan_over_after_a_naive_joiners_interrupt_ends_at_close() throws Exception {
        GpuReactor r = GpuReactor.builder().kind(ExecutorKind.NAIVE).carriers(2).plan(FLAG).jmx(false).build();
        CountDownLatch gate = new CountDownLatch(1);
        try (SimDevice dev = SimDevice.open()) {
            SimStream.Signal sig = dev.stream().hold(gate).signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 1);
            PlanRuns runs = r.planRuns();
            interruptTheJoinerRunningThePlan(f, runs);
            until("the runner runs the plan", () -> runs.size() == 1);
            Answer virtual = joinOn(VIRTUAL, f, false);
            r.close();
            assertFailedShutDownSoon(f);
            assertShutDownSoon("the virtual joiner", virtual);
            until("the runner has left the plan", () -> runs.size() == 0);
        } finally {
            gate.countDown();
            r.close();
        }
    }

    /** An untimed platform joiner of {@code f} runs its plan; an interrupt makes it leave, and {@code f} stays pending. */
    private static void interruptTheJoinerRunningThePlan(GpuFuture<Integer> f, PlanRuns runs) throws InterruptedException {
        Thread platform = Thread.ofPlatform().start(() -> {
            try {
                f.join();
            } catch (ReactorException e) {
                if (e.code() != ErrorCode.Interrupted) throw e;
            }
        });
        until("the platform joiner runs the plan", () -> runs.size() == 1);
        platform.interrupt();
        platform.join(TimeUnit.SECONDS.toMillis(ANSWER_S));
        assertFalse(platform.isAlive(), "the interrupt ended the platform joiner's wait");
        assertFalse(f.isDone(), "a caller's interrupt ends only its own wait");
    }

    @Test
    void a_naive_wait_joined_after_close_fails_shut_down_at_once() throws Exception {
        GpuReactor r = GpuReactor.builder().kind(ExecutorKind.NAIVE).carriers(2).plan(FLAG).jmx(false).build();
        CountDownLatch gate = new CountDownLatch(1);
        try (SimDevice dev = SimDevice.open()) {
            SimStream.Signal sig = dev.stream().hold(gate).signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 1);
            GpuFuture<Integer> g = r.await(sig.descriptor(), sig.port(), () -> 2);
            r.close();
            assertShutDownSoon("a platform joiner after close", joinOn(PLATFORM, f, true));
            assertShutDownSoon("a virtual joiner after close", joinOn(VIRTUAL, g, false));
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> f.toCompletableFuture().get(ANSWER_S, TimeUnit.SECONDS));
            assertEquals(ErrorCode.ShutDown, assertInstanceOf(ReactorException.class, e.getCause()).code());
        } finally {
            gate.countDown();
            r.close();
        }
    }
}
