package dev.gpureactor.parker;

/**
 * What a test changes in a parker, given at its construction: the points where its threads let a
 * test inject a fault (standing for an {@code OutOfMemoryError} there), and the lines of its
 * handshakes that a jcstress negative control removes or moves (one each). {@link #NONE}, the hooks of every
 * parker the library makes, injects nothing and changes nothing.
 */
public interface ParkerHooks {
    /** Injects nothing, changes nothing. */
    ParkerHooks NONE = new ParkerHooks() { };

    /** Run at the top of every pass of {@code parker}'s loop, inside its error handling. */
    default void beforePass(LineParker parker) { }

    /** Run on a hosting thread of {@code parker} just before it counts the hosting (after a hand-over or an announcement). */
    default void beforeHostingCount(LineParker parker) { }

    /** Run by a relieved thread of {@code parker} once it is published as standing by, before it parks. */
    default void beforeStandby(LineParker parker) { }

    /** Run by a carrier that borrowed {@code parker}'s loop, at the start of its lent turn ({@link TurnLoan}). */
    default void beforeLentTurn(LineParker parker) { }

    /** Run by the thread of {@code parker} that leaves for good, before each try to leave ({@link ParkerDeath#leave}). */
    default void beforeLeaving(LineParker parker) { }

    /** Whether a registrar reads {@code gone} after its offer (false: {@code RegisterLeaveNegativeControl}). */
    default boolean registrarReadsGone() { return true; }

    /** Whether a registrar reads {@code parking} after its offer (false: {@code UnarmedLineNegativeControl}). */
    default boolean registrarReadsParking() { return true; }

    /** Whether dropping a closed line's watch fails its waits (false: {@code LineCloseRegisterNegativeControl}). */
    default boolean closedLineFailsWaits() { return true; }

    /** Whether a hand-over writes {@code thread} before {@code handed} (false: {@code LoopHandOverNegativeControl}). */
    default boolean handOverWritesThreadFirst() { return true; }

    /** Whether a relieved thread waits for its relief's hand-over before it stands by (false: {@code ReliefStandbyNegativeControl}). */
    default boolean awaitsPendingRelief() { return true; }

    /** Whether the owner waits for a carrier's borrowed turn before it takes its loop back (false: {@code TurnLoanNegativeControl}). */
    default boolean ownerWaitsForBorrower() { return true; }

    /** Whether a lent turn that threw leaves the loan shut until the owner's take-back (false: {@code FailedTurnNegativeControl}). */
    default boolean failedTurnShutsLoan() { return true; }
}
