package dev.gpureactor.parker;

/** Where a withdrawn registration goes: the removals of the parker holding it ({@link ParkerInbox}). */
interface Removals {
    /** Takes {@code w} back from its slot at the parker's next drain; idempotent. */
    void remove(LineWait w);
}
