package dev.gpureactor.carrier;

/**
 * The lines of the carrier pool's handshakes that a jcstress negative control removes, given at the pool's
 * construction ({@link CarrierPool#withoutCarriers(PoolControls)}). {@link #NONE}, every pool the library makes,
 * changes nothing.
 *
 * @param tellsResumes  the Executor route tells resumes from starts; false: every call a start ({@code PoolResumeCloseNegativeControl})
 * @param retiresByCas  retirement is the CAS that sets the retired bit; false: any update to {@code CLOSED} retires
 *                      ({@code PoolAdmitRetireNegativeControl})
 * @param rereadsAtRest the watch reads the pool again after announcing its rest; false: it rests on its look's reading
 *                      ({@code WatchRestNegativeControl})
 */
public record PoolControls(boolean tellsResumes, boolean retiresByCas, boolean rereadsAtRest) {
    /** Changes nothing. */
    public static final PoolControls NONE = new PoolControls(true, true, true);
}
