package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.parker.ParkerHooks;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The body of {@link FailedTurnStress} and of {@link FailedTurnNegativeControl}, written once: a
 * lending parker whose every lent turn throws (its {@code beforeLentTurn} hook), with two borrowers:
 * one that borrows inside the owner's park (its park's first act, so a turn is surely lent, and the
 * park then goes on as a slice would) and a carrier between two tasks. The control differs only by
 * the one real line it changes ({@link #REOPENS}).
 */
final class FailedTurnCase {
    /** The test's hooks: every lent turn throws, as a turn whose port or readback fails half-way. */
    static final ParkerHooks THROWS = new Throwing(true);

    /** The control's hooks: as {@link #THROWS}, and a turn that threw gives the loop back open. */
    static final ParkerHooks REOPENS = new Throwing(false);

    /** Lent turns that throw; {@code shuts}: whether a failed turn shuts the loan (the library's line). */
    private record Throwing(boolean shuts) implements ParkerHooks {
        @Override public void beforeLentTurn(LineParker parker) { throw new IllegalStateException("a lent turn's fault"); }
        @Override public boolean failedTurnShutsLoan() { return shuts; }
    }

    /** Not final: the park made before it is set reads it (the park runs only in {@link #owner}). */
    private TurnLoanCase loan;
    /** Whether the borrow inside the owner's park ran a turn (the owner's thread, before its take-back). */
    private int inPark;

    FailedTurnCase(ParkerHooks hooks) {
        loan = new TurnLoanCase(hooks, (watches, bound, spin) -> {
            inPark = loan.parker.lendTurn() ? 1 : 0;
            return Rig.BRIEF_PARK.park(watches, bound, spin);
        }); // a stored word: each borrower's look says the owner's park would end
    }

    /** The owner: the real lending park; r1 the in-park borrow, r3 1 when the park rethrows a lent turn's failure. */
    void owner(III_Result r) {
        try {
            loan.parker.parkLending(loan.parker.armFor(), 1, 0);
            r.r3 = 0;
        } catch (IllegalStateException lent) {
            r.r3 = 1;
        }
        r.r1 = inPark;
    }

    /** A carrier between two tasks: the real borrow and lent turn; r2 1 when it ran (and threw in) a turn. */
    void carrier(III_Result r) {
        r.r2 = loan.parker.lendTurn() ? 1 : 0;
    }
}
