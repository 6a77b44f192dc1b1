package dev.gpureactor.loom;

import dev.gpureactor.parker.ParkerThread;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The body of {@link LoopHandOverStress} and of {@link LoopHandOverNegativeControl}, written once: the
 * control differs only by the one real line it moves ({@link Rig#HANDS_FIRST}).
 */
final class LoopHandOverCase {
    final CompletionLine line = Rig.line();
    final LineParker parker;
    final ParkerThread standing;

    /** The test's case: as the library builds it. */
    LoopHandOverCase() {
        this(ParkerHooks.NONE);
    }

    /** A negative control's case: {@code hooks} changes its one line. */
    LoopHandOverCase(ParkerHooks hooks) {
        parker = Rig.parker(line, hooks);
        standing = new ParkerThread(parker, "jcstress-standby");
        parker.step(false); // the line is watched; its group holds no wait yet
        parker.inbox.register(Rig.future(line, 0, 1, null).lineWait); // offered, drained by the owner's turn below
        if (!parker.hosting.announceStandby(standing)) throw new IllegalStateException("no standby");
    }

    void owner() {
        parker.step(false); // the owner's last write to the loop: drain the registration into the group
        parker.hosting.handOver();
    }

    void standingBy(III_Result r) {
        if (standing.handed) { // volatile, as standBy reads it before it runs the loop
            r.r1 = 1;
            r.r2 = parker.group.waiting();
            r.r3 = parker.inbox.loopThread() == standing ? 1 : 0;
        } else {
            r.r1 = 0;
            r.r2 = -1;
            r.r3 = -1;
        }
    }
}
