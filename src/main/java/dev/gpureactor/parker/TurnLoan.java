package dev.gpureactor.parker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The loop of a parked parker, lent to a carrier for one turn. While the loop's owner sleeps out a
 * polling park, a carrier between two tasks that sees a word move may {@linkplain #borrow borrow}
 * the loop, run one turn, and {@linkplain #giveBack give it back}: the waiter it completes is pushed to
 * that carrier's own queue and runs there next, with no OS wake of the parker and no hand-off
 * (docs/PARKER.md, "Turns on the carriers"). The owner {@linkplain #open opens} the loan before each
 * such park and {@linkplain #takeBack takes the loop back} after it, waiting out a borrowed turn.
 *
 * <p><b>States.</b> {@code SHUT} (the owner runs the loop), {@code OPEN} (the owner parks; a carrier
 * may borrow), {@code LENT} (a carrier runs a turn), {@code WANTED} (lent, and the owner, done parking,
 * waits for it in {@link LockSupport#park}), {@code FAILED} (a lent turn threw: nobody may borrow until
 * the owner has handled it). Only the owner leaves {@code SHUT} and enters it, and only from {@code OPEN}
 * or {@code FAILED}; only a borrower leaves {@code LENT} or {@code WANTED}, to {@code OPEN} or, after its
 * turn threw, {@code FAILED}. So at most one thread runs the loop at a time (the forbidden outcome of
 * {@code TurnLoanStress}), and a turn that threw is the loan's last until the owner takes it back: no
 * carrier runs a loop whose last turn failed half-way before its owner's error handling has repaired it
 * (the forbidden outcome of {@code FailedTurnStress}).
 *
 * <p><b>Memory ordering.</b> The owner's writes to the loop's state (the group, its watches and
 * snapshots) come before its volatile write of {@code OPEN}; a borrower's CAS from {@code OPEN} reads
 * that write, so it sees them. A borrower's writes come before its CAS or volatile write back to
 * {@code OPEN}; the owner's CAS from {@code OPEN} to {@code SHUT} reads it, so the owner sees them.
 * {@link #failure} is a plain field ordered the same way.
 */
final class TurnLoan {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(TurnLoan.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static final int SHUT = 0, OPEN = 1, LENT = 2, WANTED = 3, FAILED = 4;

    /** Spins the owner waits for a borrowed turn before it parks (a turn takes a few microseconds). */
    private static final int SPINS = 256;

    /** SHUT, OPEN, LENT, WANTED or FAILED (the class comment). Volatile: every transition orders the loop's state. */
    private volatile int state;
    /**
     * What the loan's borrowed turn threw, for the owner's error handling: written by that borrower
     * before its give-back (to {@code FAILED}, so no second borrower writes it), read and cleared by the
     * owner after its take-back and before its next open.
     */
    private Throwable failure;
    /** The thread that opened the loan, which a give-back unparks: written before {@code OPEN}, read after a borrow. */
    private Thread owner;
    /** False only in the negative control (ParkerHooks): the owner takes the loop back without waiting for a borrower. */
    private final boolean waitsForBorrower;
    /** False only in the negative control (ParkerHooks): a turn that threw gives the loop back open. */
    private final boolean shutsOnFailure;

    TurnLoan(boolean waitsForBorrower, boolean shutsOnFailure) {
        this.waitsForBorrower = waitsForBorrower;
        this.shutsOnFailure = shutsOnFailure;
    }

    /** Owner, before a polling park: carriers may borrow the loop (release: the loop's state and {@code owner} before it). */
    void open() {
        owner = Thread.currentThread();
        STATE.setVolatile(this, OPEN);
    }

    /** The thread that opened the loan (a borrower's, after its borrow). */
    Thread owner() { return owner; }

    /** Whether a carrier may borrow now (a plain check before the work of looking). */
    boolean isOpen() { return state == OPEN; }

    /**
     * Owner, after the park: takes the loop back, waiting until a borrowed turn has ended (spinning,
     * then parking with {@code WANTED} set; the borrower unparks it). Returns what the borrowed turn
     * threw, or null; the owner handles it as its own turn's.
     */
    Throwable takeBack() {
        if (!waitsForBorrower) {
            STATE.setVolatile(this, SHUT); // negative control: a borrower may still be in its turn
        } else {
            for (int spins = 0; ; spins++) {
                int s = state; // volatile
                if ((s == OPEN || s == FAILED) && STATE.compareAndSet(this, s, SHUT)) break; // acquire: the borrower's writes
                if (spins < SPINS) {
                    Thread.onSpinWait();
                } else if (s == WANTED || (s == LENT && STATE.compareAndSet(this, LENT, WANTED))) {
                    LockSupport.park(this); // the give-back unparks; a stray unpark only loops
                }
            }
        }
        Throwable f = failure;
        failure = null;
        return f;
    }

    /** A carrier: borrows the loop if it is open (one CAS; exactly one borrower wins). Acquire: the owner's writes. */
    boolean borrow() { return state == OPEN && STATE.compareAndSet(this, OPEN, LENT); }

    /** A borrower whose turn threw: the owner handles {@code t} after its take-back; the give-back shuts the loan. */
    void failed(Throwable t) { failure = t; }

    /**
     * A borrower gives the loop back (release: its turn's writes): open for another carrier, or, after
     * {@link #failed}, {@code FAILED} until the owner takes it back. Unparks the owner if it waits.
     */
    void giveBack() {
        Thread o = owner; // read before the give-back: once given back, the owner may take the loop and open again
        int back = failure != null && shutsOnFailure ? FAILED : OPEN; // plain: this borrower's own write, or the owner's null before its open
        if (STATE.compareAndSet(this, LENT, back)) return;
        STATE.setVolatile(this, back); // WANTED: the owner parks, or is about to
        LockSupport.unpark(o);
    }

    /** The state (tests). */
    int state() { return state; }
}
