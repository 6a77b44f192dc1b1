package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static dev.gpureactor.loom.Poll.until;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The {@code poll} and {@code block} plans, which a joining thread runs itself under every kind
 * (no parker watches them): a virtual thread polling leaves its carrier to others between queries;
 * a joiner with a limit does not take a {@code block} plan (whose vendor wait has no bound) but
 * hands it to the runner and waits with its limit; and a wait whose device finished before the
 * reactor closed, joined or staged only after the close, answers the port's outcome. The device
 * is held on a gate wherever the outcome must not depend on timing; every wait is hang-guarded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlanJoinTest {
    private static final long GUARD_S = 30;

    /** Runs {@code body} on a new platform or virtual thread; the result or throwable comes back. */
    private static <V> CompletableFuture<V> on(boolean virtual, Callable<V> body) {
        return GpuFutureConformanceTest.on(virtual ? GpuFutureConformanceTest.Caller.VIRTUAL : GpuFutureConformanceTest.Caller.PLATFORM, body);
    }

    /** What {@code f} threw (unwrapped), or fails if it returned or did not answer within the guard. */
    private static Throwable thrown(CompletableFuture<?> f) throws Exception {
        try {
            fail("returned " + f.get(GUARD_S, TimeUnit.SECONDS));
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    /** {@code n} waits on {@code held}'s signals (the i-th reads back i), once the parker holds them all. */
    private static java.util.List<GpuFuture<Integer>> heldWaits(GpuReactor r, SimStream held, int n) throws InterruptedException {
        java.util.List<GpuFuture<Integer>> waits = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            SimStream.Signal sig = held.signal();
            int v = i;
            waits.add(r.await(sig.descriptor(), sig.port(), () -> v));
        }
        until("the parker holds all " + n, () -> r.registrations() == n);
        return waits;
    }

    @org.junit.jupiter.api.Test
    void platform_joins_that_time_out_leave_their_waits_registered_with_the_parker_and_no_runner_polls_them() throws Exception {
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).build(); SimDevice dev = SimDevice.open()) {
            CountDownLatch gate = new CountDownLatch(1);
            java.util.List<GpuFuture<Integer>> waits = heldWaits(r, dev.stream().hold(gate), 50);
            for (GpuFuture<Integer> f : waits) { // this test's thread is a platform thread
                ReactorException e = assertThrows(ReactorException.class, () -> f.join(Duration.ofMillis(1)));
                assertEquals(ErrorCode.Timeout, e.code());
            }
            assertEquals(50, r.registrations(), "each wait keeps its registration, as join(Duration) says");
            assertEquals(0, r.planRuns().size(), "no runner polls a wait on its own (one per timed-out wait would)");
            gate.countDown();
            for (int i = 0; i < 50; i++) assertEquals(i, waits.get(i).join(Duration.ofSeconds(GUARD_S)));
            until("the registrations are back to 0", () -> r.registrations() == 0);
        }
    }

    /**
     * Under the std host an untimed platform joiner takes the plan over and withdraws the wait from
     * the parker; interrupted, it gives the wait back to the parker, which watches it as it watches a
     * virtual thread's. A runner per interrupted wait would poll that wait alone (300 such waits kept
     * 1.56 cores busy). Every other joiner is interrupted once the parker drained its withdrawal (the
     * wait registers again); the others at once, where the withdrawal may still be in the parker's
     * inbox (it is taken back: jcstress {@code GiveBackStress} races the two).
     */
    @org.junit.jupiter.api.Test
    void platform_joiners_that_are_interrupted_give_their_waits_back_to_the_parker_and_no_runner_polls_them() throws Exception {
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).build(); SimDevice dev = SimDevice.open()) {
            CountDownLatch gate = new CountDownLatch(1);
            java.util.List<GpuFuture<Integer>> waits = heldWaits(r, dev.stream().hold(gate), 50);
            for (int i = 0; i < waits.size(); i++) {
                GpuFuture<Integer> f = waits.get(i);
                CompletableFuture<Object> got = new CompletableFuture<>(); // the value, or the coded failure's code
                Thread joiner = Thread.ofPlatform().start(() -> {
                    try {
                        got.complete(f.join());
                    } catch (ReactorException e) {
                        got.complete(e.code());
                    } catch (Throwable t) {
                        got.completeExceptionally(t);
                    }
                });
                until("the joiner runs the plan", () -> r.planRuns().size() == 1);
                if (i % 2 == 1) until("the parker drained the joiner's withdrawal", () -> r.registrations() == 49);
                joiner.interrupt();
                assertEquals(ErrorCode.Interrupted, got.get(GUARD_S, TimeUnit.SECONDS));
                joiner.join();
                until("the wait is registered again", () -> r.registrations() == 50);
            }
            assertEquals(0, r.planRuns().size(), "no runner polls a wait on its own (one per interrupted joiner would)");
            assertEquals(50, r.registrations(), "each wait is back with the parker");
            gate.countDown();
            for (int i = 0; i < 50; i++) assertEquals(i, waits.get(i).join(Duration.ofSeconds(GUARD_S)));
            until("the registrations are back to 0", () -> r.registrations() == 0);
        }
    }

    /**
     * Under the std host an untimed platform joiner runs its wait's plan itself, polling that one wait;
     * a hundred of them kept two cores busy where the parker watching them all took a third of one. Only
     * as many as there are cores take their plan over; the others wait for the parker, as virtual ones do.
     */
    @org.junit.jupiter.api.Test
    void no_more_platform_joiners_run_their_plans_than_there_are_cores_and_the_parker_watches_the_rest() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors(), n = cores + 6;
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).build(); SimDevice dev = SimDevice.open()) {
            CountDownLatch gate = new CountDownLatch(1);
            java.util.List<GpuFuture<Integer>> waits = heldWaits(r, dev.stream().hold(gate), n);
            int[] got = new int[n];
            java.util.List<Thread> joiners = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                joiners.add(Thread.ofPlatform().start(() -> got[k] = waits.get(k).join()));
            }
            // Every joiner has come: it runs its plan (a run; its sleeps are timed), or it is parked on
            // the future's stack for the parker (WAITING, untimed).
            until("every joiner runs its plan or waits for the parker", () -> r.planRuns().size()
                    + joiners.stream().filter(t -> t.getState() == Thread.State.WAITING).count() == n);
            assertTrue(r.planRuns().size() <= cores, r.planRuns().size() + " plans run on joining threads, for " + cores + " cores");
            assertTrue(r.registrations() >= n - cores, "the parker watches the rest: " + r.registrations());
            gate.countDown();
            for (Thread t : joiners) assertTrue(t.join(java.time.Duration.ofSeconds(GUARD_S)), "a joiner hung: " + t);
            for (int i = 0; i < n; i++) assertEquals(i, got[i]);
            until("the registrations are back to 0", () -> r.registrations() == 0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"poll", "flag:park_us=100,backstop_us=1000"})
    void a_virtual_joiner_polling_on_the_only_carrier_lets_another_virtual_thread_run(String plan) throws Exception {
        // The other virtual thread is the one that lets the device finish: if the poller kept its
        // carrier, the device would never finish and the join would not return within the guard.
        ExecutorKind kind = plan.equals("poll") ? ExecutorKind.GPU_REACTOR : ExecutorKind.NAIVE;
        CountDownLatch gate = new CountDownLatch(1);
        try (GpuReactor r = GpuReactor.builder().kind(kind).carriers(1).plan(plan).jmx(false).build();
             SimDevice dev = SimDevice.open(); GpuExecutorService exec = r.newExecutor()) {
            try {
                SimStream.Signal sig = dev.stream().hold(gate).signal();
                GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 7);
                Future<Integer> joined = exec.submit(() -> f.join());
                until("the virtual joiner runs the plan", () -> r.planRuns().size() == 1);
                exec.submit(gate::countDown);
                assertEquals(7, joined.get(GUARD_S, TimeUnit.SECONDS), "the other virtual thread ran while the joiner polled");
            } finally {
                gate.countDown(); // on failure, before the executor's close waits for it: lets a poller that kept its carrier end
            }
        }
    }

    @ParameterizedTest(name = "{0} caller, {1}")
    @CsvSource({"platform, join", "platform, get", "virtual, join", "virtual, get"})
    void a_timed_join_under_the_block_plan_ends_at_its_limit_and_the_wait_completes_later(String caller, String how) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan("block").jmx(false).build(); SimDevice dev = SimDevice.open()) {
            SimStream.Signal sig = dev.stream().hold(gate).signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 9);
            // The device is held for good: only the caller's own limit can end its wait.
            Throwable t = thrown(on(caller.equals("virtual"), () -> how.equals("get") ? f.get(20, TimeUnit.MILLISECONDS) : f.join(Duration.ofMillis(20))));
            if (how.equals("get")) assertInstanceOf(TimeoutException.class, t);
            else assertEquals(ErrorCode.Timeout, assertInstanceOf(ReactorException.class, t).code());
            assertFalse(f.isDone(), "a caller's limit ends only its own wait");
            until("the runner runs the plan", () -> r.planRuns().size() == 1);
            gate.countDown();
            assertEquals(9, on(true, () -> f.join()).get(GUARD_S, TimeUnit.SECONDS), "the wait completes later for everyone else");
        } finally {
            gate.countDown();
        }
    }

    @ParameterizedTest(name = "{0} caller")
    @ValueSource(booleans = {false, true})
    void an_interrupt_ends_a_timed_block_plan_join_and_the_wait_goes_on(boolean virtual) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (GpuReactor r = GpuReactor.builder().carriers(2).plan("block").jmx(false).build(); SimDevice dev = SimDevice.open()) {
            SimStream.Signal sig = dev.stream().hold(gate).signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 3);
            Thread[] joiner = new Thread[1];
            CompletableFuture<Integer> a = on(virtual, () -> {
                joiner[0] = Thread.currentThread();
                return f.get(GUARD_S, TimeUnit.SECONDS);
            });
            until("the runner runs the plan", () -> r.planRuns().size() == 1);
            GpuFutureConformanceTest.awaitBlocked(joiner[0]);
            joiner[0].interrupt();
            assertInstanceOf(InterruptedException.class, thrown(a));
            assertFalse(f.isDone());
            gate.countDown();
            assertEquals(3, f.get(GUARD_S, TimeUnit.SECONDS));
        } finally {
            gate.countDown();
        }
    }

    @ParameterizedTest(name = "{0} / {1}")
    @CsvSource({"GPU_REACTOR, poll", "GPU_REACTOR, block", "NAIVE, poll", "NAIVE, block", "NAIVE, 'flag:park_us=100,backstop_us=1000'"})
    void a_wait_whose_device_finished_before_close_completes_at_its_first_join_or_stage_after_close(ExecutorKind kind, String plan)
            throws Exception {
        try (SimDevice dev = SimDevice.open()) {
            GpuReactor r = GpuReactor.builder().kind(kind).carriers(2).plan(plan).jmx(false).build();
            SimStream s = dev.stream();
            CountDownLatch start = new CountDownLatch(1); // held while the futures are made: no wait takes the no-wait fast path
            SimStream.Signal done = s.hold(start).signal();
            GpuFuture<String> joined = r.await(done.descriptor(), done.port(), () -> "joined");
            GpuFuture<String> staged = r.await(done.descriptor(), done.port(), () -> "staged");
            start.countDown();
            until("the device finished", () -> done.port().query());
            CountDownLatch gate = new CountDownLatch(1);
            SimStream.Signal held = s.hold(gate).signal();
            GpuFuture<String> pending = r.await(held.descriptor(), held.port(), () -> "never");
            r.close();
            try {
                assertEquals("joined", on(true, () -> joined.join()).get(GUARD_S, TimeUnit.SECONDS));
                assertEquals("staged", staged.toCompletableFuture().get(GUARD_S, TimeUnit.SECONDS));
                assertEquals(ErrorCode.ShutDown, assertInstanceOf(ReactorException.class,
                        thrown(on(false, () -> pending.join()))).code(), "work still pending at close");
            } finally {
                gate.countDown();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"poll", "block"})
    void a_wait_whose_device_failed_before_close_fails_with_the_ports_code_after_close(String plan) throws Exception {
        try (SimDevice dev = SimDevice.open()) {
            GpuReactor r = GpuReactor.builder().carriers(2).plan(plan).jmx(false).build();
            SimStream s = dev.stream();
            s.fail("boom");
            SimStream.Signal sig = s.signal();
            GpuFuture<String> f = r.await(sig.descriptor(), sig.port(), () -> "never");
            until("the stream failed", s::isFailed);
            r.close();
            assertEquals(ErrorCode.Backend, assertInstanceOf(ReactorException.class, thrown(on(true, () -> f.join()))).code());
            assertEquals(ErrorCode.Backend, f.failureCode());
        }
    }
}
