package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.ReactorCounters;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The body of {@link GiveBackStress} and of {@link GiveBackNegativeControl}, written once: the
 * control differs only by the future's {@link FutureControls} ({@code skipsRevoke}: the runner that
 * gives the wait back registers it again without first taking its withdrawal back).
 */
final class GiveBackCase {
    private final CompletionLine line = Rig.line();
    private final ReactorCounters counters = new ReactorCounters();
    private final LineParker parker = Rig.parker(line, ParkerHooks.NONE, counters);
    private final Inline.Plan plan = (Inline.Plan) Rig.stdHost(parker);
    private final GpuFuture<Integer> waiter;

    /** The test's case: as the library builds it. */
    GiveBackCase() {
        this(FutureControls.NONE);
    }

    /** A negative control's case: {@code controls} changes its one line. */
    GiveBackCase(FutureControls controls) {
        waiter = Rig.future(line, 0, 1, Rig.NEVER, plan, controls, () -> 42);
        Rig.registerAsReactorDoes(parker, waiter);
        parker.step(false); // the parker holds the registration
        waiter.lineWait.withdraw(); // the platform joiner took the plan over: its withdrawal waits in the parker's inbox
    }

    /** The joiner was interrupted: it leaves the plan and gives the pending wait back ({@link NaiveRunner#leave}). */
    void joiner() {
        NaiveRunner.leave(waiter, plan);
    }

    void parker() {
        parker.step(false);
    }

    void arbiter(II_Result r) {
        parker.step(false); // takes in whatever is still in the inbox
        r.r1 = parker.slotSizes().get(0);
        r.r2 = (int) counters.registrations();
    }
}
