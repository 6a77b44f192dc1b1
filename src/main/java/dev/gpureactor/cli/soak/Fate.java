package dev.gpureactor.cli.soak;

import dev.gpureactor.core.ErrorCode;

import java.util.concurrent.Future;

/**
 * What the soak decides, up front, will happen to one future, and so the one outcome it must end
 * in. Each fate is built so that its outcome does not depend on timing:
 *
 * <ul>
 *   <li>{@link #COMPLETE}: the device stores the word behind a kernel that writes the payload; the
 *       future completes with the payload.
 *   <li>{@link #CANCEL}, {@link #TIMEOUT}, {@link #INTERRUPT}: the stream is held on a gate in front
 *       of the store, the soak cancels the future, the joiner's time limit passes, or the soak
 *       interrupts the joiner; only once the joiner has seen that outcome does the gate open and
 *       the word arrive, late, changing nothing.
 *   <li>{@link #FAILED_STREAM}: the stream fails before the store; the query (the error authority)
 *       fails the wait with the backend's coded error.
 *   <li>{@link #LOST_WORD}: the stream passes the store without writing the word; the backstop
 *       query says done, so the wait completes, with a {@link ErrorCode#WordNeverWritten} warning
 *       naming its descriptor. It is the last store of its stream, so no later word can complete it
 *       first.
 *   <li>{@link #STORE_INTO_FAILURE}: the stream fails and its store still arrives, but only after a
 *       query reported the failure. <b>Rule</b>: a wait ends with the first authority that speaks, a
 *       word seen reached (the store is ordered behind the work, so the work completed) or a query
 *       that reports failure; after that nothing changes it. A store that arrives while the query
 *       says failed therefore fails the wait. (A word that arrives <em>before</em> the failure is
 *       seen completes it; that order is a race, which is why the fault is built this way round.)
 * </ul>
 *
 * The last three are terminal for their stream: each ends a stream's segment, and the next segment
 * starts on a fresh stream once every wait of this one has settled.
 */
public enum Fate {
    COMPLETE("complete", Future.State.SUCCESS, null, false),
    CANCEL("cancel", Future.State.CANCELLED, ErrorCode.Cancelled, true),
    TIMEOUT("timeout", Future.State.FAILED, ErrorCode.Timeout, true),
    INTERRUPT("interrupt", Future.State.FAILED, ErrorCode.Interrupted, true),
    FAILED_STREAM("failed-stream", Future.State.FAILED, ErrorCode.Backend, true),
    LOST_WORD("lost-word", Future.State.SUCCESS, null, true),
    STORE_INTO_FAILURE("store-into-failure", Future.State.FAILED, ErrorCode.Backend, true);

    private final String label;
    private final Future.State state;
    private final ErrorCode code;
    private final boolean fault;

    Fate(String label, Future.State state, ErrorCode code, boolean fault) {
        this.label = label;
        this.state = state;
        this.code = code;
        this.fault = fault;
    }

    public String label() { return label; }

    /** The terminal state the future must end in. */
    public Future.State expectedState() { return state; }

    /** The coded error the future must fail with, or {@code null} when it must complete with its payload. */
    public ErrorCode expectedCode() { return code; }

    /** Whether this fate is an injected fault (everything but {@link #COMPLETE}). */
    public boolean isFault() { return fault; }

    /** Whether this fate ends its stream's segment. */
    public boolean isTerminal() { return this == FAILED_STREAM || this == LOST_WORD || this == STORE_INTO_FAILURE; }

    /** Whether the stream is held on a gate until the joiner has seen the outcome. */
    boolean isGated() { return this == CANCEL || this == TIMEOUT || this == INTERRUPT; }
}
