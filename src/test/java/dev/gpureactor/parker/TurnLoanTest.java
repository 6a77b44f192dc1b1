package dev.gpureactor.parker;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A lent turn that throws shuts the loan until the owner takes it back and handles the failure: no
 * second carrier runs a loop whose last turn failed half-way. (The handshakes themselves are jcstress
 * TurnLoanStress's and FailedTurnStress's.)
 */
class TurnLoanTest {
    @Test
    void a_lent_turn_that_throws_shuts_the_loan_until_the_owner_takes_it_back_and_gets_the_failure() {
        TurnLoan loan = new TurnLoan(true, true);
        loan.open();
        IllegalStateException thrown = new IllegalStateException("the lent turn");
        assertTrue(loan.borrow());
        loan.failed(thrown);
        loan.giveBack();
        assertEquals(TurnLoan.FAILED, loan.state());
        assertFalse(loan.isOpen());
        assertFalse(loan.borrow(), "no carrier borrows a loop whose lent turn threw before its owner handled it");
        assertSame(thrown, loan.takeBack());
        assertEquals(TurnLoan.SHUT, loan.state());
        loan.open();
        assertTrue(loan.borrow(), "open again after the owner's take-back");
        loan.giveBack();
        assertNull(loan.takeBack(), "handled once");
    }

    @Test
    void a_lent_turn_that_ends_well_leaves_the_loan_open_for_the_next_carrier() {
        TurnLoan loan = new TurnLoan(true, true);
        loan.open();
        assertTrue(loan.borrow());
        loan.giveBack();
        assertTrue(loan.borrow(), "a turn that did not throw gives the loop back open");
        loan.giveBack();
        assertNull(loan.takeBack());
    }

    @Test
    void an_owner_waiting_for_a_lent_turn_that_throws_is_woken_and_gets_the_failure() throws Exception {
        TurnLoan loan = new TurnLoan(true, true);
        Throwable[] got = new Throwable[1];
        Thread owner = Thread.ofPlatform().start(() -> {
            loan.open();
            while (loan.state() == TurnLoan.OPEN) Thread.onSpinWait(); // the carrier borrows
            got[0] = loan.takeBack();
        });
        while (!loan.borrow()) Thread.onSpinWait();
        while (loan.state() != TurnLoan.WANTED) Thread.onSpinWait(); // the owner spun out and parks
        IllegalStateException thrown = new IllegalStateException("the lent turn");
        loan.failed(thrown);
        loan.giveBack();
        owner.join(10_000);
        assertFalse(owner.isAlive(), "the give-back unparks the owner that waits");
        assertSame(thrown, got[0]);
        assertEquals(TurnLoan.SHUT, loan.state());
    }
}
