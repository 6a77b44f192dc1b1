package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The body of {@link InlineTakeoverStress} and of {@link InlineTakeoverNegativeControl}, written
 * once: the control differs only by the future's {@link FutureControls} ({@code skipsWithdraw}: the
 * joiner's withdrawal of the parker's registration before its first query).
 */
final class InlineTakeoverCase {
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final GpuFuture<Integer> waiter;
    private int joined;

    /** The test's case: as the library builds it. */
    InlineTakeoverCase() {
        this(FutureControls.NONE);
    }

    /** A negative control's case: {@code controls} changes its one line. */
    InlineTakeoverCase(FutureControls controls) {
        waiter = Rig.future(line, 0, 1, Rig.failingThenStoring(line, 0, 1), Rig.stdHost(), controls, () -> 42);
        Rig.registerAsReactorDoes(parker, waiter);
        parker.step(false); // the parker holds the registration
    }

    void platformJoiner() {
        try {
            joined = waiter.join() == 42 ? 1 : 3;
        } catch (ReactorException e) {
            joined = e.code() == ErrorCode.Backend ? 2 : 3;
        }
    }

    void parker() {
        parker.step(false);
    }

    void arbiter(II_Result r) {
        r.r1 = Rig.settled(waiter);
        r.r2 = joined;
    }
}
