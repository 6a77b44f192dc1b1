package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.parker.ParkerHooks;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The body of {@link RegisterLeaveStress} and of {@link RegisterLeaveNegativeControl}, written once:
 * the control differs only by the parker's {@link ParkerHooks} ({@link Rig#SKIPS_GONE}: the
 * registrar's read of {@code gone} after its offer).
 */
final class RegisterLeaveCase {
    private final CompletionLine line = Rig.line();
    private final LineParker parker;
    private final GpuFuture<Void> waiter = Rig.future(line, 0, 1, null);
    private final ReactorException why = new ReactorException(ErrorCode.ShutDown, "jcstress");

    /** The test's case: as the library builds it. */
    RegisterLeaveCase() {
        this(ParkerHooks.NONE);
    }

    /** A negative control's case: {@code hooks} changes its one line. */
    RegisterLeaveCase(ParkerHooks hooks) {
        parker = Rig.parker(line, hooks);
    }

    void registrar() {
        parker.inbox.register(waiter.lineWait);
    }

    void leaving() {
        parker.inbox.leave(why);
    }

    void arbiter(II_Result r) {
        r.r1 = Rig.settled(waiter);
        r.r2 = parker.inbox.inboxSize();
    }
}
