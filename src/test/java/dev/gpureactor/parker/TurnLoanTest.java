package dev.gpureactor.parker;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The failures of lent turns reach the owner: the loan is open again after a borrower's turn threw, so a
 * second borrower's turn may throw before the owner takes the loan back; the owner handles the first,
 * the second rides on it, and none is lost. (The handshake itself is jcstress TurnLoanStress's.)
 */
class TurnLoanTest {
    @Test
    void two_lent_turns_that_throw_before_the_take_back_reach_the_owner_as_one_failure_carrying_the_other() {
        TurnLoan loan = new TurnLoan(true);
        loan.open();
        IllegalStateException first = new IllegalStateException("the first lent turn");
        IllegalStateException second = new IllegalStateException("the second lent turn");
        assertTrue(loan.borrow());
        loan.failed(first);
        loan.giveBack();
        assertTrue(loan.borrow(), "open again: another carrier may borrow before the owner takes it back");
        loan.failed(second);
        loan.giveBack();
        assertSame(first, loan.takeBack());
        assertArrayEquals(new Throwable[] {second}, first.getSuppressed());
        loan.open();
        assertNull(loan.takeBack(), "handled once");
    }
}
