package dev.gpureactor.reliability;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.loom.GpuExecutorService;
import dev.gpureactor.loom.GpuFuture;
import dev.gpureactor.loom.GpuReactor;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Misuse of the public API: each gets a clear, coded error (or the JDK's exception where the JDK's
 * interface fixes it: {@link NullPointerException} naming the argument, {@link RejectedExecutionException}),
 * never a hang, a crash or a wrong result. The line's own misuse (a segment too small or
 * misaligned, reads after close) is in {@code CompletionLineTest}; parker death in
 * {@code ParkerDeathTest}; the plan and band parsers' fuzzing in the core property tests.
 */
class MisuseTest {
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);

    private static ReactorException coded(ErrorCode code, Executable e) {
        ReactorException r = assertThrows(ReactorException.class, e);
        assertEquals(code, r.code(), r.getMessage());
        assertTrue(r.getMessage().startsWith(code.tag() + " " + code.name()), r.getMessage());
        return r;
    }

    private static void awaitQuiet(GpuReactor r) throws InterruptedException {
        long end = System.nanoTime() + HANG_GUARD.toNanos();
        while (r.registrations() != 0 && System.nanoTime() - end < 0) Thread.sleep(2);
        assertEquals(0, r.registrations());
    }

    @Test
    void a_slot_out_of_range_is_slot_out_of_range() {
        for (int bad : new int[] {-1, 8, 64, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertEquals(List.of(Integer.toString(bad)), coded(ErrorCode.SlotOutOfRange, () -> Slot.of(bad)).args());
            coded(ErrorCode.SlotOutOfRange, () -> new Slot(bad));
        }
    }

    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"NAIVE", "GPU_REACTOR"})
    void a_target_already_passed_completes_at_once_without_a_registration(ExecutorKind kind) throws Exception {
        try (GpuReactor r = GpuReactor.builder().kind(kind).carriers(1).build(); CompletionLine line = CompletionLine.allocate()) {
            line.store(Slot.of(3), 1_000);
            for (long target : new long[] {0, 1, 999, 1_000, Long.MIN_VALUE + 1_001}) { // the last is 2^63 behind, wrapping
                GpuFuture<Long> f = r.await(new MemoryDescriptor(line, Slot.of(3), target), never(), () -> target);
                assertTrue(f.isDone(), "target " + target);
                assertEquals(target, f.join(HANG_GUARD));
            }
            assertEquals(0, r.registrations());
        }
    }

    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"NAIVE", "GPU_REACTOR"})
    void a_target_absurdly_far_ahead_just_waits(ExecutorKind kind) throws Exception {
        try (GpuReactor r = GpuReactor.builder().kind(kind).carriers(1).build(); CompletionLine line = CompletionLine.allocate()) {
            line.store(Slot.of(0), 7);
            MemoryDescriptor far = new MemoryDescriptor(line, Slot.of(0), 7 + Long.MAX_VALUE); // 2^63 - 1 ahead: not reached
            GpuFuture<Void> f = r.await(far, never());
            assertFalse(f.isDone());
            coded(ErrorCode.Timeout, () -> f.join(Duration.ofMillis(5)));
            assertFalse(f.isDone(), "the caller's limit ends only its own wait");
            GpuFuture<Void> g = r.await(far, never());
            assertTrue(g.cancel(false));
            coded(ErrorCode.Cancelled, g::join);
            assertTrue(f.cancel(false), "it still just waits");
            awaitQuiet(r);
        }
    }

    /** A port whose device never finishes: only the word (or nothing) ends the wait. */
    private static CompletionPort never() {
        return new CompletionPort() {
            @Override public boolean query() { return false; }
            @Override public void block() throws InterruptedException { new CountDownLatch(1).await(); }
            @Override public void arm() {}
            @Override public boolean park(long boundNanos) throws InterruptedException {
                TimeUnit.NANOSECONDS.sleep(Math.min(boundNanos, 1_000_000));
                return false;
            }
        };
    }

    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"NAIVE", "GPU_REACTOR"})
    void join_on_a_closed_line_is_line_closed(ExecutorKind kind) throws Exception {
        try (GpuReactor r = GpuReactor.builder().kind(kind).carriers(1).build()) {
            CompletionLine line = CompletionLine.allocate();
            MemoryDescriptor d = new MemoryDescriptor(line, Slot.of(0), 1);
            line.close();
            GpuFuture<Void> f = r.await(d, never());
            coded(ErrorCode.LineClosed, f::join);
            coded(ErrorCode.LineClosed, () -> f.join(HANG_GUARD));
            ExecutionException e = assertThrows(ExecutionException.class, f::get);
            assertEquals(ErrorCode.LineClosed, assertInstanceOf(ReactorException.class, e.getCause()).code());
            assertEquals(0, r.registrations());
        }
    }

    @ParameterizedTest
    @EnumSource(value = ExecutorKind.class, names = {"NAIVE", "GPU_REACTOR"})
    void closing_a_line_with_waiters_fails_them_with_line_closed_and_closing_it_again_does_nothing(ExecutorKind kind)
            throws Exception {
        try (GpuReactor r = GpuReactor.builder().kind(kind).carriers(2).plan("flag:park_us=100,backstop_us=1000").build()) {
            CompletionLine line = CompletionLine.allocate();
            AtomicInteger closes = new AtomicInteger();
            line.onClose(closes::incrementAndGet);
            List<GpuFuture<Void>> futures = new ArrayList<>();
            List<Thread> joiners = new ArrayList<>();
            List<ErrorCode> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int s = 0; s < CompletionLine.WORDS; s++) {
                GpuFuture<Void> f = r.await(new MemoryDescriptor(line, Slot.of(s), 1), never());
                futures.add(f);
                joiners.add(r.startVirtualThread(() -> {
                    try {
                        f.join();
                        seen.add(null);
                    } catch (ReactorException e) {
                        seen.add(e.code());
                    }
                }));
            }
            Thread.sleep(10); // let the joiners park (not needed for the outcome, only to exercise it)
            line.close();
            line.close();
            for (Thread t : joiners) {
                t.join(HANG_GUARD.toMillis());
                assertFalse(t.isAlive(), "a joiner still waits on the closed line");
            }
            assertEquals(java.util.Collections.nCopies(CompletionLine.WORDS, ErrorCode.LineClosed), seen);
            assertEquals(1, closes.get(), "close listeners run once");
            for (GpuFuture<Void> f : futures) assertEquals(ErrorCode.LineClosed, f.failureCode());
            awaitQuiet(r);
        }
    }

    @Test
    void a_segment_kept_past_its_lines_close_is_never_read_again() {
        CompletionLine line = CompletionLine.allocate();
        MemorySegment kept = line.segment();
        line.store(Slot.of(0), 42);
        line.close();
        coded(ErrorCode.LineClosed, () -> line.word(Slot.of(0)));
        coded(ErrorCode.LineClosed, () -> new MemoryDescriptor(line, Slot.of(0), 1).isComplete());
        // The memory went back with its arena: FFM refuses the access, it does not read freed memory.
        assertFalse(kept.scope().isAlive());
        assertThrows(IllegalStateException.class, () -> kept.get(ValueLayout.JAVA_LONG, 0));
    }

    @Test
    void submit_after_shutdown_is_rejected_and_a_closed_reactor_refuses_new_work_with_rejected_and_waits_with_shut_down() throws Exception {
        GpuReactor r = GpuReactor.builder().carriers(1).build();
        GpuExecutorService exec = r.newExecutor();
        assertEquals(1, exec.submit(() -> 1).get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
        exec.shutdown();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> exec.submit(() -> 2));
        assertTrue(e.getMessage().startsWith(ErrorCode.Rejected.tag()), e.getMessage());
        assertEquals("GAR-0025 Rejected: executor is shut down: it accepts no new task", e.getMessage());
        assertThrows(RejectedExecutionException.class, () -> exec.execute(() -> {}));
        assertTrue(exec.awaitTermination(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
        r.close();
        r.close(); // twice: nothing
        coded(ErrorCode.Rejected, r::newExecutor);
        coded(ErrorCode.Rejected, () -> r.startVirtualThread(() -> {}));
        coded(ErrorCode.Rejected, r::threadFactory);
        try (CompletionLine line = CompletionLine.allocate()) {
            coded(ErrorCode.ShutDown, r.await(new MemoryDescriptor(line, Slot.of(0), 1), never())::join);
        }
    }

    /** Every public entry point that takes a reference: null is a NullPointerException naming the argument. */
    @TestFactory
    Stream<DynamicTest> null_arguments_are_npes_naming_the_argument() throws Exception {
        GpuReactor r = GpuReactor.builder().carriers(1).build();
        SimDevice dev = SimDevice.open();
        SimStream s = dev.stream();
        CompletionLine line = s.line();
        MemoryDescriptor d = new MemoryDescriptor(line, Slot.of(0), 1);
        CompletionPort p = never();
        GpuFuture<Integer> f = r.await(d, p, () -> 1);
        GpuExecutorService exec = r.newExecutor();
        GpuReactor.Builder b = GpuReactor.builder();
        MemorySegment seg = java.lang.foreign.Arena.ofAuto().allocate(64, 64);
        record Case(String call, String name, Executable run) {}
        List<Case> cases = List.of(
                new Case("GpuReactor.await(null, port, readback)", "descriptor", () -> r.await(null, p, () -> 1)),
                new Case("GpuReactor.await(d, null, readback)", "port", () -> r.await(d, null, () -> 1)),
                new Case("GpuReactor.await(d, port, null)", "readback", () -> r.await(d, p, null)),
                new Case("GpuReactor.await(null, port)", "descriptor", () -> r.await(null, p)),
                new Case("GpuReactor.await(d, null)", "port", () -> r.await(d, null)),
                new Case("GpuReactor.await(d, port, readback, null)", "pointKey", () -> r.await(d, p, () -> 1, null)),
                new Case("GpuReactor.await(d, port, null, key)", "readback", () -> r.await(d, p, null, "k")),
                new Case("GpuReactor.startVirtualThread(null)", "task", () -> r.startVirtualThread(null)),
                new Case("Builder.kind(null)", "kind", () -> b.kind(null)),
                new Case("Builder.scheduler(null)", "scheduler", () -> b.scheduler(null)),
                new Case("Builder.strictness(null)", "strictness", () -> b.strictness(null)),
                new Case("Builder.plan((WaitPlan) null)", "plan", () -> b.plan((WaitPlan) null)),
                new Case("Builder.plan((String) null)", "text", () -> b.plan((String) null)),
                new Case("Builder.parkSpin(null)", "parkSpin", () -> b.parkSpin(null)),
                new Case("Builder.caps(null)", "caps", () -> b.caps(null)),
                new Case("Builder.warnings(null)", "sink", () -> b.warnings(null)),
                new Case("Builder.deadlineSleeper(null)", "factory", () -> b.deadlineSleeper(null)),
                new Case("GpuFuture.join(null)", "limit", () -> f.join(null)),
                new Case("GpuFuture.get(1, null)", "unit", () -> f.get(1, null)),
                new Case("GpuFuture.onComplete(null)", "action", () -> f.onComplete(null)),
                new Case("GpuFuture.onComplete(null, executor)", "action", () -> f.onComplete(null, Runnable::run)),
                new Case("GpuFuture.onComplete(action, null)", "executor", () -> f.onComplete((v, t) -> {}, null)),
                new Case("GpuExecutorService.execute(null)", "task", () -> exec.execute(null)),
                new Case("GpuExecutorService.submit((Runnable) null)", "task", () -> exec.submit((Runnable) null)),
                new Case("GpuExecutorService.submit((Callable) null)", "task", () -> exec.submit((Callable<Integer>) null)),
                new Case("GpuExecutorService.submit(null, result)", "task", () -> exec.submit(null, 1)),
                new Case("SimStream.compute(null)", "d", () -> s.compute(null)),
                new Case("SimStream.compute(null, body)", "d", () -> s.compute(null, () -> {})),
                new Case("SimStream.compute(d, null)", "body", () -> s.compute(Duration.ZERO, null)),
                new Case("SimStream.hold(null)", "gate", () -> s.hold(null)),
                new Case("SimStream.fail(null)", "why", () -> s.fail(null)),
                new Case("SimStream.signalThenFail(null)", "why", () -> s.signalThenFail(null)),
                new Case("SimStream.signalIntoFailure(null)", "why", () -> s.signalIntoFailure(null)),
                new Case("SimDevice.stream(null, slot)", "line", () -> dev.stream(null, Slot.of(0))),
                new Case("SimDevice.stream(line, null)", "slot", () -> dev.stream(line, null)),
                new Case("CompletionLine.wrap(null, name, release)", "segment", () -> CompletionLine.wrap(null, "n", () -> {})),
                new Case("CompletionLine.wrap(seg, null, release)", "name", () -> CompletionLine.wrap(seg, null, () -> {})),
                new Case("CompletionLine.wrap(seg, name, null)", "release", () -> CompletionLine.wrap(seg, "n", null)),
                new Case("CompletionLine.onClose(null)", "listener", () -> line.onClose(null)),
                new Case("new MemoryDescriptor(null, slot, t)", "line", () -> new MemoryDescriptor(null, Slot.of(0), 1)),
                new Case("new MemoryDescriptor(line, null, t)", "slot", () -> new MemoryDescriptor(line, null, 1)),
                new Case("WaitPlan.parse(null)", "text", () -> WaitPlan.parse(null)),
                new Case("ExecutorKind.parse(null)", "name", () -> ExecutorKind.parse(null)));
        return Stream.concat(cases.stream().map(c -> DynamicTest.dynamicTest(c.call(), () -> {
            NullPointerException e = assertThrows(NullPointerException.class, c.run(), c.call());
            assertEquals(c.name(), e.getMessage(), c.call());
        })), Stream.of(DynamicTest.dynamicTest("(clean up)", () -> {
            exec.close();
            r.close();
            dev.close();
        })));
    }
}
