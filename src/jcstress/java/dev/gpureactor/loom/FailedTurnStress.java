package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A lent turn that throws shuts the loan ({@code TurnLoan}'s {@code FAILED}): the owner runs the real
 * {@link dev.gpureactor.parker.LineParker#parkLending}, whose park first borrows the loop itself (the
 * real {@link dev.gpureactor.parker.LineParker#lendTurn}, as a carrier would at that instant), and a
 * carrier runs the real {@code lendTurn}; every lent turn throws. Why it holds: the
 * failed borrower gives the loop back {@code FAILED}, from which only the owner's take-back leaves
 * (to {@code SHUT}), and a borrow is a CAS from {@code OPEN}; the failure, written before that
 * give-back, is read by the owner after its CAS from {@code FAILED}.
 *
 * <p>Results: r1 whether the borrow inside the park ran a turn, r2 whether the carrier did; r3
 * whether the owner's park rethrew a lent turn's failure. jcstress runs no more actors than cores, so
 * the first borrower rides on the owner's thread.
 */
@JCStressTest
@Description("Owner (open, a park that borrows a turn, take back) vs. a carrier; every lent turn throws.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "The turn borrowed in the park threw; the carrier found the loan shut (or came before the open or after the take-back); the owner rethrew.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "The carrier's turn threw first; the borrow in the park found the loan shut; the owner rethrew.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: a second turn ran on a loop whose lent turn had thrown, before the owner handled it (1, 1, _), or a lent turn's failure never reached the owner.")
@State
public class FailedTurnStress {
    final FailedTurnCase c = new FailedTurnCase(FailedTurnCase.THROWS);

    @Actor public void owner(III_Result r) { c.owner(r); }
    @Actor public void carrier(III_Result r) { c.carrier(r); }
}
