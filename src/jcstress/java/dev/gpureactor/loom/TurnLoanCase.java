package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Slot;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.SnapshotPark;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The body of {@link TurnLoanStress} and of {@link TurnLoanNegativeControl}, written once: the
 * control differs only by the one real line it changes ({@link Rig#TAKES_BACK_AT_ONCE}).
 */
final class TurnLoanCase {
    final CompletionLine line = Rig.line();
    final LineParker parker;

    /** The test's case: as the library builds it. */
    TurnLoanCase() {
        this(ParkerHooks.NONE);
    }

    /** A negative control's case: {@code hooks} changes its one line. */
    TurnLoanCase(ParkerHooks hooks) {
        this(hooks, Rig.BRIEF_PARK);
    }

    /** A case whose owner parks with {@code park}. */
    TurnLoanCase(ParkerHooks hooks, SnapshotPark park) {
        parker = Rig.lendingParker(line, hooks, park);
        parker.step(false); // the line is watched
        parker.inbox.register(Rig.future(line, 0, 1, null).lineWait);
        parker.step(false); // the owner's turn: the wait is in the group, the word (0) in the snapshot
        if (!parker.inbox.announcePark(parker.armFor())) throw new IllegalStateException("no park");
        line.store(Slot.of(0), 1); // the device's store, before both actors: the lent turn would complete the wait
    }

    /** The owner: the real lending park (open, park, take back), then its next read of the loop's state. */
    void owner(II_Result r) {
        parker.parkLending(parker.armFor(), 1, 0);
        r.r2 = parker.group.waiting();
    }

    /** A carrier between two tasks: the real borrow and lent turn. */
    void carrier(II_Result r) {
        r.r1 = parker.lendTurn() ? 1 : 0;
    }
}
