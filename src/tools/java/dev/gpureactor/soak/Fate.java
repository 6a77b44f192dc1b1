package dev.gpureactor.soak;

import dev.gpureactor.core.ErrorCode;

import java.util.concurrent.Future;

/**
 * What the soak decides, up front, will happen to one future, and so the one outcome it must end
 * in. Each fate is built so that its outcome does not depend on timing:
 *
 * <ul>
 *   <li>{@link #COMPLETE}: the device stores the word behind a kernel that writes the payload; the
 *       future completes with the payload.
 *   <li>{@link #CANCEL}: the stream is held on a gate in front of the store and the soak cancels
 *       the future; only once a joiner has seen that does the gate open and the word arrive, late,
 *       changing nothing.
 *   <li>{@link #TIMEOUT}, {@link #INTERRUPT}: held the same way, the first joiner's time limit
 *       passes or the soak interrupts it: that ends only <em>its</em> wait ({@link #ownCode()}).
 *       Then the gate opens and the future completes with the payload for every other joiner, and
 *       for the first one, which joins again.
 *   <li>{@link #READBACK_THROWS}: the word arrives; the readback throws an unchecked exception,
 *       which every observer sees as the failure itself (the cause, as {@code FutureTask} reports).
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
 *   <li>{@link #PORT_THROWS}: the word never arrives and the port's query throws an unchecked
 *       exception: every joiner (parker, platform, naive) ends with the coded {@link ErrorCode#Backend}.
 * </ul>
 *
 * The terminal ones are terminal for their stream: each ends a stream's segment, and the next segment
 * starts on a fresh stream once every wait of this one has settled.
 */
public enum Fate {
    COMPLETE("complete", Future.State.SUCCESS, null, false),
    CANCEL("cancel", Future.State.CANCELLED, ErrorCode.Cancelled, true),
    TIMEOUT("timeout", Future.State.SUCCESS, null, true),
    INTERRUPT("interrupt", Future.State.SUCCESS, null, true),
    READBACK_THROWS("readback-throws", Future.State.FAILED, null, true),
    FAILED_STREAM("failed-stream", Future.State.FAILED, ErrorCode.Backend, true),
    LOST_WORD("lost-word", Future.State.SUCCESS, null, true),
    STORE_INTO_FAILURE("store-into-failure", Future.State.FAILED, ErrorCode.Backend, true),
    PORT_THROWS("port-throws", Future.State.FAILED, ErrorCode.Backend, true);

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

    /**
     * The coded error the future must fail with, or {@code null} when it must complete with its
     * payload (or, for {@link #READBACK_THROWS}, fail with the readback's own exception).
     */
    public ErrorCode expectedCode() { return code; }

    /** Whether this fate is an injected fault (everything but {@link #COMPLETE}). */
    public boolean isFault() { return fault; }

    /** What the first joiner alone sees, its own wait ended by its limit or interrupt; {@code null} for other fates. */
    public ErrorCode ownCode() {
        return switch (this) {
            case TIMEOUT -> ErrorCode.Timeout;
            case INTERRUPT -> ErrorCode.Interrupted;
            default -> null;
        };
    }

    /** Whether this fate ends its stream's segment. */
    public boolean isTerminal() { return this == FAILED_STREAM || this == LOST_WORD || this == STORE_INTO_FAILURE || this == PORT_THROWS; }

    /** Whether the stream is held on a gate until the joiner has seen the outcome. */
    boolean isGated() { return this == CANCEL || this == TIMEOUT || this == INTERRUPT; }
}
