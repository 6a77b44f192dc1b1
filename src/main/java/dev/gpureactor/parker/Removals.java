package dev.gpureactor.parker;

/** Where a withdrawn registration goes: the removals of the parker holding it ({@link ParkerInbox}). */
interface Removals {
    /** Takes {@code w} back from its slot at the parker's next drain; idempotent. */
    void remove(LineWait w);

    /**
     * Takes back a withdrawal of {@code w} that the parker has not drained: true when one was
     * taken, so the parker still holds {@code w} (or takes it in with its registration); false when
     * the parker has drained it (or failed everything at its leaving).
     */
    boolean revoke(LineWait w);
}
