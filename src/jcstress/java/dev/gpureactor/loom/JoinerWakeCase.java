package dev.gpureactor.loom;

import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The body of {@link JoinerWakeStress} and of {@link LostWakeupNegativeControl}, written once: the
 * control differs only by the future's {@link FutureControls} ({@code skipsJoinerRecheck}: the
 * joiner's re-check of the state after its push).
 */
final class JoinerWakeCase {
    private final GpuFuture<Void> f;
    private GpuFuture.Joiner node;

    /** The test's case: as the library builds it. */
    JoinerWakeCase() {
        this(FutureControls.NONE);
    }

    /** A negative control's case: {@code controls} changes its one line. */
    JoinerWakeCase(FutureControls controls) {
        f = Rig.future(controls, null);
    }

    void joiner() {
        node = Rig.joinStep(f);
    }

    void settler() {
        f.signal();
    }

    void arbiter(II_Result r) {
        r.r1 = node == null ? 0 : 1;
        r.r2 = node != null && !Rig.woken(node) ? 1 : 0;
    }
}
