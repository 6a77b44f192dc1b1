package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link GpuFuture#toCompletableFuture()} reports the wait's outcome as the wait itself does: the
 * stage's {@link Future#state()} is the future's, for each outcome, with the stage asked for before
 * and after it. The JSR-166 TCK's CompletableFutureTest check helpers, run on such a stage, found a
 * cancelled wait's stage failed (a coded exception) instead of cancelled.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a measurement
class StageOutcomeTest {
    private static final long GUARD_S = 30;

    static final class Boom extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    private enum End { COMPLETE, FAIL, CANCEL }

    /** Runs {@code check} on a wait ended by {@code end}, its stage asked for while pending or after. */
    private static void withStage(End end, boolean early, Boom boom, Check check) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (GpuReactor reactor = GpuReactor.builder().carriers(2).build(); SimDevice device = SimDevice.open()) {
            SimStream.Signal sig = device.stream().hold(gate).signal();
            Supplier<Integer> readback = () -> {
                if (end == End.FAIL) throw boom;
                return 7;
            };
            GpuFuture<Integer> f = reactor.await(sig.descriptor(), sig.port(), readback);
            CompletableFuture<Integer> stage = early ? f.toCompletableFuture() : null;
            if (end == End.CANCEL) assertTrue(f.cancel(false));
            gate.countDown();
            try {
                f.get(GUARD_S, TimeUnit.SECONDS);
            } catch (ExecutionException | CancellationException expected) {
                // the outcome under test
            }
            if (!early) stage = f.toCompletableFuture();
            stage.handle((v, t) -> null).get(GUARD_S, TimeUnit.SECONDS); // completed on the callback executor
            check.run(f, stage);
        } finally {
            gate.countDown();
        }
    }

    @FunctionalInterface
    private interface Check {
        void run(GpuFuture<Integer> f, CompletableFuture<Integer> stage) throws Exception;
    }

    @Test
    void theStageStateIsTheWaitsState() throws Exception {
        for (End end : End.values()) {
            for (boolean early : new boolean[] {true, false}) {
                withStage(end, early, new Boom(), (f, stage) -> {
                    assertEquals(f.state(), stage.state(), end + (early ? ", stage asked first" : ", stage asked after"));
                    assertEquals(f.isCancelled(), stage.isCancelled(), end.toString());
                });
            }
        }
    }

    @Test
    void aCancelledWaitsStageIsCancelledAndKeepsTheCodedReason() throws Exception {
        for (boolean early : new boolean[] {true, false}) {
            withStage(End.CANCEL, early, null, (f, stage) -> {
                assertTrue(stage.isCancelled(), "a cancelled wait's stage is cancelled, as the wait is");
                assertTrue(stage.isCompletedExceptionally());
                assertEquals(Future.State.CANCELLED, stage.state());
                CancellationException got = assertThrows(CancellationException.class, stage::get);
                assertThrows(CancellationException.class, stage::join);
                assertCodedCancelled(got);
                // A dependent stage sees the cancellation wrapped, as after any cancelled CompletableFuture.
                CompletableFuture<Integer> next = stage.thenApply(v -> v + 1);
                CompletionException wrapped = assertThrows(CompletionException.class, next::join);
                assertInstanceOf(CancellationException.class, wrapped.getCause());
                Throwable seen = stage.handle((v, t) -> t).join();
                assertInstanceOf(CancellationException.class, seen);
                assertCodedCancelled(seen);
                // onComplete is served by the same stage: its callback receives the same cancellation.
                CompletableFuture<Throwable> called = new CompletableFuture<>();
                f.onComplete((v, t) -> called.complete(t));
                Throwable given = called.get(GUARD_S, TimeUnit.SECONDS);
                assertInstanceOf(CancellationException.class, given);
                assertCodedCancelled(given);
            });
        }
    }

    @Test
    void aFailedReadbacksStageFailsWithTheReadbacksOwnException() throws Exception {
        Boom boom = new Boom();
        withStage(End.FAIL, true, boom, (f, stage) -> {
            assertFalse(stage.isCancelled());
            assertSame(boom, stage.handle((v, t) -> t).join());
            assertSame(boom, assertThrows(ExecutionException.class, stage::get).getCause());
        });
    }

    /** The coded Cancelled is somewhere in the chain: what was cancelled stays readable. */
    private static void assertCodedCancelled(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ReactorException re) {
                assertEquals(ErrorCode.Cancelled, re.code());
                return;
            }
        }
        fail("no coded Cancelled in the cause chain of " + t);
    }

    @Test
    void an_onComplete_action_that_throws_goes_to_the_uncaught_handler_of_the_thread_that_ran_it() throws Exception {
        try (GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).build(); SimDevice dev = SimDevice.open()) {
            SimStream.Signal sig = dev.stream().signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 7);
            CompletableFuture<Throwable> handled = new CompletableFuture<>();
            // An executor whose threads report to a handler of the test's: as execute(task) reports what a task throws.
            java.util.concurrent.Executor own = task -> Thread.ofVirtual()
                    .uncaughtExceptionHandler((t, e) -> handled.complete(e)).start(task);
            Boom boom = new Boom();
            assertSame(f, f.onComplete((v, t) -> { throw boom; }, own));
            assertSame(boom, handled.get(30, TimeUnit.SECONDS), "the action's throw reached no handler");
            assertEquals(7, f.join(), "the wait is not the action's");
        }
    }

    @Test
    void an_onComplete_action_runs_when_its_wait_settles_after_the_reactor_closed() throws Exception {
        // A platform joiner runs the readback; the reactor closes meanwhile (the readback is past PENDING, so
        // the close cannot fail it) and its callback pool retires; then the readback returns. The action's
        // executor now refuses it: the action must still run, once.
        GpuReactor r = GpuReactor.builder().jmx(false).carriers(1).build();
        try (dev.gpureactor.core.CompletionLine line = dev.gpureactor.core.CompletionLine.allocate()) {
            dev.gpureactor.core.MemoryDescriptor d = new dev.gpureactor.core.MemoryDescriptor(line, dev.gpureactor.core.Slot.of(0), 1);
            dev.gpureactor.core.CompletionPort port = new dev.gpureactor.core.CompletionPort() {
                @Override public boolean query() { return d.isComplete(); }
                @Override public void block() { }
                @Override public void arm() { }
                @Override public boolean park(long boundNanos) {
                    java.util.concurrent.locks.LockSupport.parkNanos(Math.min(boundNanos, 50_000));
                    return d.isComplete();
                }
            };
            CountDownLatch inReadback = new CountDownLatch(1), release = new CountDownLatch(1);
            GpuFuture<Integer> f = r.await(d, port, () -> {
                inReadback.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                return 42;
            });
            CountDownLatch ran = new CountDownLatch(1);
            f.onComplete((v, t) -> ran.countDown());
            Thread joiner = Thread.ofPlatform().start(f::join); // untimed: it runs the plan, then the readback
            line.store(dev.gpureactor.core.Slot.of(0), 1);
            assertTrue(inReadback.await(30, TimeUnit.SECONDS), "the readback started");
            r.close();
            release.countDown();
            joiner.join(TimeUnit.SECONDS.toMillis(30));
            assertEquals(42, f.join());
            assertTrue(ran.await(30, TimeUnit.SECONDS), "the onComplete action was dropped");
        } finally {
            r.close();
        }
    }
}
