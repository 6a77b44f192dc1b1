package dev.gpureactor.loom;

import org.openjdk.jcstress.infra.results.I_Result;

import java.util.concurrent.CompletableFuture;

/**
 * The body of {@link StageSettleStress} and of {@link StageSettleNegativeControl}, written once: the
 * control differs only by the future's {@link FutureControls} ({@code skipsStageRecheck}:
 * {@code toCompletableFuture}'s re-read of the state after its CAS).
 */
final class StageSettleCase {
    private final GpuFuture<Void> f;
    private CompletableFuture<Void> stage;

    /** The test's case: as the library builds it. */
    StageSettleCase() {
        this(FutureControls.NONE);
    }

    /** A negative control's case: {@code controls} changes its one line. */
    StageSettleCase(FutureControls controls) {
        f = Rig.future(controls, null);
    }

    void asker() {
        stage = f.toCompletableFuture();
    }

    void settler() {
        f.signal();
    }

    void arbiter(I_Result r) {
        r.r1 = stage.isDone() ? 1 : 0;
    }
}
