package dev.gpureactor.loom;

/**
 * The lines of a {@link GpuFuture}'s handshakes that a jcstress negative control removes or changes,
 * given at the future's construction. {@link #NONE}, every future the library makes, changes nothing.
 *
 * @param skipsJoinerRecheck a joiner parks without re-reading the state after its push ({@code LostWakeupNegativeControl})
 * @param skipsStageRecheck  the internal stage's maker does not re-read the state after its CAS ({@code StageSettleNegativeControl})
 * @param skipsWithdraw      a joiner taking the plan over keeps the parker's registration ({@code InlineTakeoverNegativeControl})
 * @param cancelAnswersState a losing cancel answers whether the future ended cancelled ({@code CancelAnswerNegativeControl})
 * @param skipsRevoke        a runner that gives its wait back registers it again without taking its withdrawal back first ({@code GiveBackNegativeControl})
 */
record FutureControls(boolean skipsJoinerRecheck, boolean skipsStageRecheck, boolean skipsWithdraw, boolean cancelAnswersState,
                      boolean skipsRevoke) {
    /** Changes nothing. */
    static final FutureControls NONE = new FutureControls(false, false, false, false, false);
}
