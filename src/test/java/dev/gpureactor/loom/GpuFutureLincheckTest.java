package dev.gpureactor.loom;

import dev.gpureactor.parker.Reports;
import dev.gpureactor.parker.LineWait;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.BooleanGen;
import org.jetbrains.kotlinx.lincheck.strategy.IncorrectResultsFailure;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lincheck's model checker against the future's state machine: every interleaving (up to the
 * options' bounds) of the device's signal, a port failure, cancel, the outcome reads and stage
 * registration on the real {@link GpuFuture}, checked for linearizability against
 * {@link FutureModel}, a plain sequential class. The future is built as the jcstress rig builds it:
 * no reactor, no parker; the test's threads play the parker (signal, fail) and the callers.
 */
class GpuFutureLincheckTest {
    /** The word the futures wait on: never stored, so only the operations below move a future. */
    private static final CompletionLine LINE =
            CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "lincheck", () -> { });
    /** A port that never answers: the checker's threads play the device. */
    private static final CompletionPort NEVER = new CompletionPort() {
        @Override public boolean query() { return false; }
        @Override public void block() { throw new UnsupportedOperationException("never done"); }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    };
    /** The port's failure (made once: a fresh exception's stack walk is thousands of steps for the checker). */
    private static final ReactorException FAILURE = new ReactorException(ErrorCode.Backend, "lincheck", "stream", 1, "E", "failed");
    static final int VALUE = 42;

    /**
     * The operations on one real future with a readback (so a device completion passes through
     * READY and RESOLVING, and the readback runs on whichever caller resolves it). Each returns a
     * plain value: an outcome is named, not compared by identity.
     */
    public static class FutureOps {
        final AtomicInteger readbacks = new AtomicInteger();
        final AtomicInteger registered = new AtomicInteger();
        final ConcurrentLinkedQueue<String> callbacks = new ConcurrentLinkedQueue<>();
        /**
         * What Lincheck sees of the future: a lambda, whose captured fields its lazy instrumentation
         * does not walk (the walk reads every field with Unsafe.objectFieldOffset, which refuses a
         * record's: MemoryDescriptor). The future's classes are instrumented by name instead.
         */
        private final Supplier<GpuFuture<Integer>> hidden;

        public FutureOps() {
            this(FutureControls.NONE);
        }

        /** A future with the lines {@code controls} removes (the negative control's). */
        FutureOps(FutureControls controls) {
            Instrumented.classes(GpuFuture.class, LineWait.class);
            GpuFuture<Integer> made = new GpuFuture<>(1, new MemoryDescriptor(LINE, Slot.of(0), 1), NEVER, () -> {
                readbacks.incrementAndGet();
                return VALUE;
            }, Runnable::run, 0, 0, 0, 0, null, null, Inline.NONE, Reports.IN_PLACE, controls);
            hidden = () -> made;
        }

        final GpuFuture<Integer> f() { return hidden.get(); }

        /** The parker's signal: the word reached its target. */
        @Operation public boolean signal() { return f().signal(); }

        /** The port failed the wait (or a line, a close: the same move). */
        @Operation public boolean fail() { return f().fail(FAILURE); }

        @Operation public boolean cancel(@Param(gen = BooleanGen.class) boolean mayInterrupt) { return f().cancel(mayInterrupt); }

        @Operation public boolean isDone() { return f().isDone(); }

        @Operation public boolean isCancelled() { return f().isCancelled(); }

        @Operation public String state() { return f().state().name(); }

        @Operation public String resultNow() {
            try {
                return "value " + f().resultNow();
            } catch (IllegalStateException e) {
                return "not completed";
            }
        }

        @Operation public String exceptionNow() {
            try {
                return named(f().exceptionNow());
            } catch (IllegalStateException e) {
                return "not failed";
            }
        }

        /** {@code get} with a zero limit: never parks, so the checker's threads never block. */
        @Operation public String getNow() {
            try {
                return "value " + f().get(0, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                return "timeout";
            } catch (CancellationException e) {
                return "cancelled";
            } catch (ExecutionException e) {
                return "failed " + named(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }

        /** Registers a callback on the caller's own thread as executor; {@link #everyCallbackOnce} checks what it saw. */
        @Operation public void onComplete() {
            registered.incrementAndGet();
            f().onComplete((v, t) -> callbacks.add(t == null ? "value " + v : named(t)), Runnable::run);
        }

        /**
         * After every scenario: the readback ran at most once, and every callback ran exactly once
         * with the outcome (or, on a future still pending, none ran).
         */
        @Validate public void everyCallbackOnce() {
            if (readbacks.get() > 1) throw new IllegalStateException("readback ran " + readbacks.get() + " times");
            String outcome = switch (f().rawState()) {
                case GpuFuture.COMPLETED -> "value " + VALUE;
                case GpuFuture.FAILED -> named(FAILURE);
                case GpuFuture.CANCELLED -> "CancellationException";
                default -> null; // pending, or the device done and nobody asked for the readback
            };
            int expected = outcome == null ? 0 : registered.get();
            if (callbacks.size() != expected) {
                throw new IllegalStateException(registered.get() + " callbacks registered, " + callbacks + " ran, state " + f().rawState());
            }
            for (String c : callbacks) {
                if (!c.equals(outcome)) throw new IllegalStateException("a callback saw " + c + ", the future ended " + outcome);
            }
        }

        static String named(Throwable t) {
            return t instanceof ReactorException re ? re.code().name() : t.getClass().getSimpleName();
        }
    }

    /**
     * The sequential specification: the contract of docs/DESIGN.md §7 with each operation atomic.
     * READY (the device done, the readback not yet run) is not a state here: every read that would
     * show the outcome runs the readback first, so it looks the same as COMPLETED.
     */
    public static class FutureModel {
        enum S { PENDING, COMPLETED, FAILED, CANCELLED }

        private S s = S.PENDING;

        private boolean move(S to) {
            if (s != S.PENDING) return false;
            s = to;
            return true;
        }

        public boolean signal() { return move(S.COMPLETED); }

        public boolean fail() { return move(S.FAILED); }

        public boolean cancel(boolean mayInterrupt) { return move(S.CANCELLED); }

        public boolean isDone() { return s != S.PENDING; }

        public boolean isCancelled() { return s == S.CANCELLED; }

        public String state() {
            return switch (s) {
                case PENDING -> "RUNNING";
                case COMPLETED -> "SUCCESS";
                case FAILED -> "FAILED";
                case CANCELLED -> "CANCELLED";
            };
        }

        public String resultNow() { return s == S.COMPLETED ? "value " + VALUE : "not completed"; }

        public String exceptionNow() { return s == S.FAILED ? ErrorCode.Backend.name() : "not failed"; }

        public String getNow() {
            return switch (s) {
                case PENDING -> "timeout";
                case COMPLETED -> "value " + VALUE;
                case FAILED -> "failed " + ErrorCode.Backend.name();
                case CANCELLED -> "cancelled";
            };
        }

        public void onComplete() { }
    }

    /**
     * {@link FutureOps} on a future whose losing cancel gives the old answer ("it is cancelled")
     * instead of false: the jcstress {@code CancelAnswerNegativeControl}'s one removed line, set at
     * construction of the control's future.
     */
    public static class CancelAnswersStateOps extends FutureOps {
        public CancelAnswersStateOps() { super(new FutureControls(false, false, false, true, false)); }
    }

    static ModelCheckingOptions options() {
        return new ModelCheckingOptions()
                .iterations(8)
                .invocationsPerIteration(150)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(2)
                .sequentialSpecification(FutureModel.class);
    }

    @Test
    void theFuturesStateMachineIsLinearizable() {
        LinChecker.check(FutureOps.class, options());
    }

    @Test
    void negativeControlTwoCancelsBothToldTrueIsNotLinearizable() {
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> LinChecker.check(CancelAnswersStateOps.class, options().minimizeFailedScenario(false)));
        assertInstanceOf(IncorrectResultsFailure.class, e.getFailure(), e.getMessage());
        assertTrue(e.getMessage().contains("cancel"), e.getMessage());
    }
}
