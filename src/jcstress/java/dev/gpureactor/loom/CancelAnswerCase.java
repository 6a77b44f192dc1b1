package dev.gpureactor.loom;

import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The body shared by {@link CancelAnswerStress} and its {@link CancelAnswerNegativeControl} (which
 * differs only by the future's {@link FutureControls}, {@code cancelAnswersState}): two
 * threads cancel one real pending {@link GpuFuture} at once, each through {@link GpuFuture#cancel},
 * and each reads {@link GpuFuture#isDone()} right after its own answer. FutureTask's contract (the
 * JSR-166 TCK's FutureTaskTest checks it): only the cancel that moved the future answers true, and a
 * cancel that answered false leaves the future done (a losing cancel waits out the winner's
 * owner-only SETTLING).
 *
 * <p>Results: r1 how many cancels answered true, r2 1 when both callers saw isDone() after their
 * own cancel and the future ended cancelled.
 */
final class CancelAnswerCase {
    private final GpuFuture<Integer> f;
    private boolean answerA, answerB, doneA, doneB;

    /** The test's case: as the library builds it. */
    CancelAnswerCase() {
        this(FutureControls.NONE);
    }

    /** A negative control's case: {@code controls} changes its one line. */
    CancelAnswerCase(FutureControls controls) {
        f = Rig.future(controls, () -> 42);
    }

    void first() {
        answerA = f.cancel(false);
        doneA = f.isDone();
    }

    void second() {
        answerB = f.cancel(true);
        doneB = f.isDone();
    }

    void arbiter(II_Result r) {
        r.r1 = (answerA ? 1 : 0) + (answerB ? 1 : 0);
        r.r2 = doneA && doneB && f.isCancelled() ? 1 : 0;
    }
}
