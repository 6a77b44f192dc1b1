package dev.gpureactor.loom;

import dev.gpureactor.parker.ParkerThread;
import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The {@link Future} contract, side by side: every case runs against a JDK {@link FutureTask}
 * doing the same thing (a task held on a gate, then returning a value or throwing) and against a
 * {@link GpuFuture} under each executor kind (gpu-reactor, naive), each with its caller on a
 * virtual and on a platform thread. What the JDK future does, the GpuFuture does.
 *
 * <p>Then the GpuFuture-only parts of the contract: {@code join}'s exceptions, stage threads,
 * throwing ports, cancel during a deadline sleep. Every wait is bounded by a hang guard; no case
 * asserts a duration.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GpuFutureConformanceTest {
    private static final long GUARD_S = 30;
    private static final long VALUE = 42;

    /** The readback's (or the task's) own exception. */
    static final class Boom extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Boom() { super("readback failed"); }
    }

    enum Impl { JDK_FUTURE_TASK, GPU_REACTOR, NAIVE }

    enum Caller { VIRTUAL, PLATFORM }

    record Case(Impl impl, Caller caller) {
        @Override public String toString() { return impl + " / " + caller + " caller"; }
    }

    static Stream<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (Impl i : Impl.values()) for (Caller c : Caller.values()) out.add(new Case(i, c));
        return out.stream();
    }

    /** A pending future, held on a gate; {@link #finish()} lets the device (or task) run. */
    static final class Subject implements AutoCloseable {
        final Future<Long> future;
        private final CountDownLatch gate = new CountDownLatch(1);
        private final AutoCloseable[] resources;

        Subject(Impl impl, boolean fails) {
            java.util.function.Supplier<Long> result = () -> {
                if (fails) throw BOOM.get();
                return VALUE;
            };
            if (impl == Impl.JDK_FUTURE_TASK) {
                FutureTask<Long> task = new FutureTask<>(() -> {
                    gate.await();
                    return result.get();
                });
                Thread.ofPlatform().daemon(true).start(task);
                future = task;
                resources = new AutoCloseable[0];
            } else {
                GpuReactor r = GpuReactor.builder().kind(impl == Impl.NAIVE ? ExecutorKind.NAIVE : ExecutorKind.GPU_REACTOR)
                        .carriers(2).build();
                SimDevice dev = SimDevice.open();
                SimStream.Signal sig = dev.stream().hold(gate).signal();
                future = r.await(sig.descriptor(), sig.port(), result);
                resources = new AutoCloseable[] {dev, r};
            }
        }

        void finish() { gate.countDown(); }

        @Override
        public void close() throws Exception {
            gate.countDown();
            for (AutoCloseable c : resources) c.close();
        }
    }

    /** One exception instance per test, so "the readback's own exception" can be checked by identity. */
    private static final AtomicReference<Boom> BOOM_NOW = new AtomicReference<>();
    private static final java.util.function.Supplier<Boom> BOOM = BOOM_NOW::get;

    /** Runs {@code body} on a thread of the case's kind; the returned future has its result or throwable. */
    static <V> CompletableFuture<V> on(Caller caller, java.util.concurrent.Callable<V> body) {
        CompletableFuture<V> out = new CompletableFuture<>();
        Runnable r = () -> {
            try {
                out.complete(body.call());
            } catch (Throwable t) {
                out.completeExceptionally(t);
            }
        };
        if (caller == Caller.VIRTUAL) Thread.ofVirtual().start(r); else Thread.ofPlatform().daemon(true).start(r);
        return out;
    }

    /** What a thread threw, from {@link #on}. */
    static Throwable thrown(CompletableFuture<?> f) throws Exception {
        try {
            f.get(GUARD_S, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (CancellationException e) { // CompletableFuture.get rethrows a CancellationException as one of its own
            return e.getCause() != null ? e.getCause() : e;
        }
    }

    /** Waits until {@code t} is blocked (parked or sleeping) inside the wait, or a guard passes. */
    static void awaitBlocked(Thread t) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
        while (System.nanoTime() < end) {
            Thread.State s = t.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) return;
            Thread.sleep(1);
        }
        fail("the caller never blocked");
    }

    // ---------------------------------------------------------------- side by side with FutureTask

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void a_timed_get_that_times_out_ends_only_that_callers_wait(Case c) throws Exception {
        try (Subject s = new Subject(c.impl(), false)) {
            assertInstanceOf(TimeoutException.class, thrown(on(c.caller(), () -> s.future.get(20, TimeUnit.MILLISECONDS))));
            assertFalse(s.future.isDone());
            assertEquals(Future.State.RUNNING, s.future.state());
            s.finish();
            assertEquals(VALUE, on(c.caller(), () -> s.future.get()).get(GUARD_S, TimeUnit.SECONDS),
                    "the device completes it later, for everyone else");
            assertEquals(Future.State.SUCCESS, s.future.state());
            assertEquals(VALUE, s.future.resultNow());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void an_interrupt_set_before_get_ends_only_that_callers_wait(Case c) throws Exception {
        try (Subject s = new Subject(c.impl(), false)) {
            CompletableFuture<Boolean> flagAfter = on(c.caller(), () -> {
                Thread.currentThread().interrupt();
                try {
                    s.future.get();
                    return null;
                } catch (InterruptedException e) {
                    return Thread.currentThread().isInterrupted();
                }
            });
            assertEquals(Boolean.FALSE, flagAfter.get(GUARD_S, TimeUnit.SECONDS), "InterruptedException, flag cleared");
            assertFalse(s.future.isDone());
            s.finish();
            assertEquals(VALUE, s.future.get(GUARD_S, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void an_interrupt_during_get_ends_only_that_callers_wait(Case c) throws Exception {
        try (Subject s = new Subject(c.impl(), false)) {
            AtomicReference<Thread> me = new AtomicReference<>();
            CompletableFuture<Long> got = on(c.caller(), () -> {
                me.set(Thread.currentThread());
                return s.future.get();
            });
            while (me.get() == null) Thread.onSpinWait();
            awaitBlocked(me.get());
            me.get().interrupt();
            assertInstanceOf(InterruptedException.class, thrown(got));
            assertFalse(s.future.isDone(), "the future does not change");
            s.finish();
            assertEquals(VALUE, s.future.get(GUARD_S, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void cancel_releases_a_waiting_caller_at_once(Case c) throws Exception {
        try (Subject s = new Subject(c.impl(), false)) {
            AtomicReference<Thread> me = new AtomicReference<>();
            CompletableFuture<Long> got = on(c.caller(), () -> {
                me.set(Thread.currentThread());
                return s.future.get();
            });
            while (me.get() == null) Thread.onSpinWait();
            awaitBlocked(me.get());
            assertTrue(s.future.cancel(false));
            assertInstanceOf(CancellationException.class, thrown(got));
            assertTrue(s.future.isCancelled());
            assertTrue(s.future.isDone());
            assertEquals(Future.State.CANCELLED, s.future.state());
            assertThrows(IllegalStateException.class, s.future::resultNow);
            assertThrows(IllegalStateException.class, s.future::exceptionNow);
            s.finish();
            assertThrows(CancellationException.class, () -> s.future.get(GUARD_S, TimeUnit.SECONDS), "the late device changes nothing");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void cancel_after_done_is_false_and_changes_nothing(Case c) throws Exception {
        try (Subject s = new Subject(c.impl(), false)) {
            s.finish();
            assertEquals(VALUE, on(c.caller(), () -> s.future.get()).get(GUARD_S, TimeUnit.SECONDS));
            assertFalse(s.future.cancel(true));
            assertFalse(s.future.isCancelled());
            assertEquals(VALUE, s.future.resultNow());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void a_failing_readback_is_the_cause_itself_and_each_caller_gets_its_own_exception(Case c) throws Exception {
        Boom boom = new Boom();
        BOOM_NOW.set(boom);
        try (Subject s = new Subject(c.impl(), true)) {
            s.finish();
            Throwable first = thrown(on(c.caller(), () -> s.future.get()));
            Throwable second = thrown(on(c.caller(), () -> s.future.get()));
            ExecutionException e1 = assertInstanceOf(ExecutionException.class, first);
            ExecutionException e2 = assertInstanceOf(ExecutionException.class, second);
            assertSame(boom, e1.getCause(), "ExecutionException.getCause() is the readback's own exception");
            assertSame(boom, e2.getCause());
            assertNotSame(e1, e2, "each caller gets its own exception");
            assertSame(boom, s.future.exceptionNow());
            assertEquals(Future.State.FAILED, s.future.state());
        }
    }

    // ---------------------------------------------------------------- GpuFuture's own contract

    @ParameterizedTest
    @EnumSource(value = Impl.class, names = {"GPU_REACTOR", "NAIVE"})
    void join_mirrors_completable_future_join_and_a_timed_join_leaves_the_future_pending(Impl impl) throws Exception {
        Boom boom = new Boom();
        BOOM_NOW.set(boom);
        try (Subject s = new Subject(impl, true)) {
            GpuFuture<Long> f = (GpuFuture<Long>) s.future;
            ReactorException timeout = assertThrows(ReactorException.class, () -> f.join(Duration.ofMillis(10)));
            assertEquals(ErrorCode.Timeout, timeout.code());
            assertFalse(f.isDone());
            assertNull(f.failureCode());
            s.finish();
            CompletableFuture<Long> reference = CompletableFuture.failedFuture(boom);
            CompletionException mine = assertThrows(CompletionException.class, f::join);
            CompletionException jdk = assertThrows(CompletionException.class, reference::join);
            assertSame(jdk.getCause(), mine.getCause(), "the readback's exception, wrapped as CompletableFuture.join wraps it");
            assertNotSame(mine, assertThrows(CompletionException.class, f::join), "a fresh exception per joiner");
            assertNull(f.failureCode(), "a readback's own exception carries no code");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Impl.class, names = {"GPU_REACTOR", "NAIVE"})
    void a_readback_that_throws_a_reactor_exception_is_reported_as_the_readbacks_own(Impl impl) throws Exception {
        ReactorException own = new ReactorException(ErrorCode.Timeout, "the readback's own", "copy");
        try (GpuReactor r = GpuReactor.builder().kind(impl == Impl.NAIVE ? ExecutorKind.NAIVE : ExecutorKind.GPU_REACTOR)
                .carriers(2).jmx(false).build(); SimDevice dev = SimDevice.open()) {
            SimStream.Signal sig = dev.stream().signal();
            GpuFuture<Long> f = r.await(sig.descriptor(), sig.port(), () -> { throw own; });
            CompletionException joined = assertThrows(CompletionException.class, f::join);
            assertSame(own, joined.getCause(), "join: a CompletionException whose cause is the readback's exception");
            assertSame(own, assertThrows(ExecutionException.class, f::get).getCause());
            assertSame(own, f.exceptionNow());
            assertNull(f.failureCode(), "a readback's own exception carries no code, whatever its type");
            assertEquals(Future.State.FAILED, f.state());
        }
    }

    /**
     * Once {@code isDone()} reads true, no caller's limit or interrupt ends its wait, as none ends {@code FutureTask.get}
     * once done: a {@code get(0)}, a {@code join(Duration.ZERO)} and an interrupted {@code get()} made while another
     * thread runs the readback return its value (an outside probe's linearizability check: {@code isDone()} true, then
     * {@code get(0)} threw {@code TimeoutException} in 195 of 200 rounds, an interrupted {@code get()}
     * {@code InterruptedException} in 197).
     */
    @Test
    void once_done_no_limit_or_interrupt_ends_a_caller_s_wait_while_another_thread_runs_the_readback() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(2).jmx(false).build(); SimDevice dev = SimDevice.open()) {
            CountDownLatch inReadback = new CountDownLatch(1), release = new CountDownLatch(1);
            SimStream.Signal sig = dev.stream().signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> {
                inReadback.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                return 42;
            });
            while (!f.isDone()) Thread.sleep(1);
            Thread resolver = Thread.ofPlatform().start(f::join); // runs the readback, held on the latch
            assertTrue(inReadback.await(10, TimeUnit.SECONDS));
            assertTrue(f.isDone(), "done: the device finished, the readback runs");

            AtomicReference<Object> zeroGet = new AtomicReference<>(), zeroJoin = new AtomicReference<>(), interrupted = new AtomicReference<>();
            AtomicBoolean flagKept = new AtomicBoolean();
            List<Thread> callers = List.of(
                    Thread.ofPlatform().start(() -> zeroGet.set(outcome(() -> f.get(0, TimeUnit.NANOSECONDS)))),
                    Thread.ofVirtual().start(() -> zeroJoin.set(outcome(() -> f.join(Duration.ZERO)))),
                    Thread.ofPlatform().start(() -> {
                        Thread.currentThread().interrupt();
                        interrupted.set(outcome(f::get));
                        flagKept.set(Thread.currentThread().isInterrupted());
                    }));
            Thread.sleep(50); // the callers wait for the readback, or (the defect) have already failed
            release.countDown();
            for (Thread t : callers) t.join(TimeUnit.SECONDS.toMillis(10));
            resolver.join(TimeUnit.SECONDS.toMillis(10));
            assertEquals(42, zeroGet.get(), "get(0) once done");
            assertEquals(42, zeroJoin.get(), "join(Duration.ZERO) once done");
            assertEquals(42, interrupted.get(), "an interrupted get() once done");
            assertTrue(flagKept.get(), "the interrupt stays set for the caller");
        }
    }

    private static Object outcome(Callable<?> call) {
        try {
            return call.call();
        } catch (Exception e) {
            return e;
        }
    }

    @Test
    void a_coded_failure_reaches_each_joiner_as_its_own_exception_with_the_shared_one_as_cause() throws Exception {
        try (Subject s = new Subject(Impl.GPU_REACTOR, false)) {
            GpuFuture<Long> f = (GpuFuture<Long>) s.future;
            assertTrue(f.cancel(false));
            ReactorException a = assertThrows(ReactorException.class, f::join);
            ReactorException b = on(Caller.VIRTUAL, () -> assertThrows(ReactorException.class, f::join)).get(GUARD_S, TimeUnit.SECONDS);
            assertEquals(ErrorCode.Cancelled, a.code());
            assertEquals(ErrorCode.Cancelled, b.code());
            assertNotSame(a, b);
            assertSame(a.getCause(), b.getCause(), "the shared coded failure is the cause");
            assertTrue(stackHas(b, "lambda$"), "the virtual joiner's exception has its own stack");
        }
    }

    private static boolean stackHas(Throwable t, String frame) {
        for (StackTraceElement e : t.getStackTrace()) if (e.getMethodName().contains(frame)) return true;
        return false;
    }

    @ParameterizedTest
    @EnumSource(value = Impl.class, names = {"GPU_REACTOR", "NAIVE"})
    void a_join_with_a_limit_too_long_for_nanoseconds_saturates(Impl impl) throws Exception {
        try (Subject s = new Subject(impl, false)) {
            GpuFuture<Long> f = (GpuFuture<Long>) s.future;
            CompletableFuture<Long> joined = on(Caller.VIRTUAL, () -> f.join(Duration.ofSeconds(Long.MAX_VALUE)));
            CompletableFuture<Long> joinedP = on(Caller.PLATFORM, () -> f.join(Duration.ofDays(365L * 1_000_000)));
            s.finish();
            assertEquals(VALUE, joined.get(GUARD_S, TimeUnit.SECONDS));
            assertEquals(VALUE, joinedP.get(GUARD_S, TimeUnit.SECONDS));
        }
    }

    /** thenRun without a readback, and whenComplete on a failed stream, never run on gar-parker-line-*. */
    @Test
    void stage_callbacks_never_run_on_a_parker() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(2).build(); SimDevice dev = SimDevice.open()) {
            SimStream ok = dev.stream(), bad = dev.stream();
            CountDownLatch gate = new CountDownLatch(1);
            SimStream.Signal done = ok.hold(gate).signal();
            GpuFuture<Void> plain = r.await(done.descriptor(), done.port());
            CountDownLatch badGate = new CountDownLatch(1);
            SimStream.Signal failed = bad.hold(badGate).compute(Duration.ZERO).fail("injected").signal();
            GpuFuture<Void> failing = r.await(failed.descriptor(), failed.port());
            AtomicReference<Thread> ranOn = new AtomicReference<>(), failedOn = new AtomicReference<>();
            CompletableFuture<Void> a = plain.toCompletableFuture().thenRun(() -> ranOn.set(Thread.currentThread()));
            CompletableFuture<Void> b = failing.toCompletableFuture().whenComplete((v, t) -> failedOn.set(Thread.currentThread()));
            gate.countDown();
            badGate.countDown();
            a.get(GUARD_S, TimeUnit.SECONDS);
            assertThrows(ExecutionException.class, () -> b.get(GUARD_S, TimeUnit.SECONDS));
            assertFalse(ranOn.get() instanceof ParkerThread, "thenRun ran on " + ranOn.get());
            assertFalse(failedOn.get() instanceof ParkerThread, "whenComplete ran on " + failedOn.get());
        }
    }

    /** An unchecked exception from the port must not reach one caller and leave the wait pending, so that the next parks for ever. */
    @ParameterizedTest
    @EnumSource(value = Impl.class, names = {"GPU_REACTOR", "NAIVE"})
    void an_unchecked_port_exception_ends_the_wait_for_every_joiner_with_a_coded_error(Impl impl) throws Exception {
        try (GpuReactor r = GpuReactor.builder().kind(impl == Impl.NAIVE ? ExecutorKind.NAIVE : ExecutorKind.GPU_REACTOR)
                .carriers(2).build(); SimDevice dev = SimDevice.open()) {
            SimStream.Signal lost = dev.stream().signalLost(); // the word never arrives: only the port speaks
            IllegalStateException bug = new IllegalStateException("port bug");
            CompletionPort throwing = new CompletionPort() {
                @Override public boolean query() { throw bug; }
                @Override public void block() { throw bug; }
                @Override public void arm() { }
                @Override public boolean park(long boundNanos) throws InterruptedException { return lost.port().park(boundNanos); }
            };
            GpuFuture<Void> f = r.await(lost.descriptor(), throwing);
            // A platform caller runs the plan inline (std host, and naive); the other joiner waits behind it.
            CompletableFuture<Void> v = on(Caller.VIRTUAL, f::join);
            CompletableFuture<Void> p = on(Caller.PLATFORM, f::join);
            Throwable first = thrown(p);
            Throwable second = thrown(v);
            for (Throwable t : new Throwable[] {first, second}) {
                ReactorException e = assertInstanceOf(ReactorException.class, t);
                assertEquals(ErrorCode.Backend, e.code());
            }
            assertEquals(ErrorCode.Backend, f.failureCode());
            assertSame(bug, f.exceptionNow().getCause(), "the coded error carries the port's exception");
        }
    }

    /** Cancel releases a naive or platform joiner from its deadline sleep at once, not at the deadline. */
    @ParameterizedTest
    @EnumSource(value = Impl.class, names = {"GPU_REACTOR", "NAIVE"})
    void cancel_wakes_a_joiner_in_its_deadline_sleep(Impl impl) throws Exception {
        String plan = "flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=60000000,window=8";
        try (GpuReactor r = GpuReactor.builder().kind(impl == Impl.NAIVE ? ExecutorKind.NAIVE : ExecutorKind.GPU_REACTOR)
                .plan(plan).carriers(2).build(); SimDevice dev = SimDevice.open()) {
            Object point = "fifty-second kernel";
            for (int i = 0; i < 8; i++) r.points().observe(point, r.plan().predict().orElseThrow(), new Outcome.Exact(TimeUnit.SECONDS.toNanos(50)));
            CountDownLatch gate = new CountDownLatch(1);
            SimStream.Signal sig = dev.stream().hold(gate).signal();
            GpuFuture<Long> f = r.await(sig.descriptor(), sig.port(), () -> VALUE, point);
            AtomicReference<Thread> me = new AtomicReference<>();
            // A platform caller runs the plan itself under both kinds: it sleeps to the prediction.
            CompletableFuture<Long> joined = on(Caller.PLATFORM, () -> {
                me.set(Thread.currentThread());
                return f.join();
            });
            while (me.get() == null) Thread.onSpinWait();
            awaitBlocked(me.get());
            assertTrue(f.cancel(false));
            ReactorException e = assertInstanceOf(ReactorException.class, thrown(joined), "released before its fifty-second sleep (the guard is 30 s)");
            assertEquals(ErrorCode.Cancelled, e.code());
            gate.countDown();
        }
    }
}
