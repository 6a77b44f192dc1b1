package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The loop lent to a carrier for one turn ({@code TurnLoan}): the owner runs the real
 * {@link dev.gpureactor.parker.LineParker#parkLending} (open the loan, park, take the loop back,
 * waiting out a lent turn) and then reads its group; a carrier runs the real
 * {@link dev.gpureactor.parker.LineParker#lendTurn} (borrow by CAS, one real turn that completes the
 * stored wait, give back). Why it holds: the owner leaves a park only by a CAS from {@code OPEN},
 * which a lent turn's give-back writes last, so the owner reads the group only after the lent
 * turn's writes, or no carrier borrowed.
 *
 * <p>Results: r1 whether the carrier ran a turn (1) or found the loop not open (0); r2 the waits the
 * owner's group holds after its take-back.
 */
@JCStressTest
@Description("Owner (open, park, take back, read the group) vs. a carrier (borrow, run a turn, give back).")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "No lent turn (before the open or after the take-back): the wait is still the owner's.")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "A lent turn completed the wait, and the owner took the loop back after it.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: the owner runs its loop while a carrier's lent turn still does (it reads a group the turn is changing): two threads in one loop.")
@State
public class TurnLoanStress {
    final TurnLoanCase c = new TurnLoanCase();

    @Actor public void owner(II_Result r) { c.owner(r); }
    @Actor public void carrier(II_Result r) { c.carrier(r); }
}
