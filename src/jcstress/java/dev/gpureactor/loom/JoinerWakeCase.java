package dev.gpureactor.loom;

import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The body of {@link JoinerWakeStress}, {@link SecondJoinerWakeStress} and their negative controls, written
 * once. The joiner is the future's first ({@link JoinerWakeStress}: it registers in the sole slot), or its
 * second ({@link SecondJoinerWakeStress}: the slot is already held by a placeholder thread that is never
 * started, so its unpark is a no-op, and the joiner pushes a node on the stack). A control differs only by
 * the future's {@link FutureControls} ({@code skipsJoinerRecheck}: the joiner's re-check of the state after it
 * registers).
 */
final class JoinerWakeCase {
    private final GpuFuture<Void> f;
    /** The slot's holder when the joiner is the second, else null. */
    private final Thread first;
    private GpuFuture.Joiner node;
    private Thread joining;

    /** The test's case: as the library builds it; {@code second}: the slot already held. */
    JoinerWakeCase(boolean second) {
        this(FutureControls.NONE, second);
    }

    /** A negative control's case: {@code controls} changes its one line. */
    JoinerWakeCase(FutureControls controls, boolean second) {
        f = Rig.future(controls, null);
        first = second ? new Thread(() -> { }) : null;
        if (second && f.register(first) != JoinerStack.IN_SOLE) throw new AssertionError("a fresh future's slot is free");
    }

    void joiner() {
        joining = Thread.currentThread();
        node = Rig.joinStep(f);
    }

    void settler() {
        f.signal();
    }

    /** r1: 1 when the joiner decided to park; r2: 1 when a thread that parks was never woken (the joiner, or the slot's holder). */
    void arbiter(II_Result r) {
        r.r1 = node == null ? 0 : 1;
        boolean joinerLeft = node != null && !Rig.woken(f, node, joining);
        boolean holderLeft = first != null && !Rig.woken(f, JoinerStack.IN_SOLE, first);
        r.r2 = joinerLeft || holderLeft ? 1 : 0;
    }
}
