package dev.gpureactor.loom;

import dev.gpureactor.parker.Turn;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The body of {@link LineCloseRegisterStress} and of {@link LineCloseRegisterNegativeControl},
 * written once: the control differs only by the one real line it removes
 * ({@link ParkerHooks#closedLineFailsWaits}).
 */
final class LineCloseRegisterCase {
    final CompletionLine a = Rig.line();
    final CompletionLine b = Rig.line();
    final LineParker parker;
    final GpuFuture<Void> onA = Rig.future(a, 0, 1, null);
    final GpuFuture<Void> onB = Rig.future(b, 0, 1, null);

    /** The test's case: as the library builds it. */
    LineCloseRegisterCase() {
        this(ParkerHooks.NONE);
    }

    /** A negative control's case: {@code hooks} changes its one line. */
    LineCloseRegisterCase(ParkerHooks hooks) {
        parker = Rig.parker(a, hooks);
        b.onClose(() -> parker.inbox.closeLine(b, new ReactorException(ErrorCode.LineClosed, b.name(), "wait")));
        parker.inbox.register(onA.lineWait);
        parker.step(false);
    }

    void registrar() {
        parker.inbox.register(onB.lineWait);
    }

    void closerThenParker() {
        b.close();
        parker.step(false);
    }

    void arbiter(III_Result r) {
        for (int i = 0; i < 4 && parker.step(false) instanceof Turn.Again; i++) { } // the loop turns on after the offer's wake
        r.r1 = state(onB);
        r.r2 = state(onA);
        r.r3 = parker.watchedLines();
    }

    static int state(GpuFuture<?> f) {
        int s = Rig.settled(f);
        if (s != 2) return s;
        return f.exceptionNow() instanceof ReactorException e && e.code() == ErrorCode.LineClosed ? 2 : 3;
    }
}
