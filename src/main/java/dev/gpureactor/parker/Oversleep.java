package dev.gpureactor.parker;

/**
 * How late the OS has recently woken a parker from its timed sleeps: a decaying maximum of the
 * oversleep (woke − asked), capped. Two uses, both so that the estimator's censored {@code Late}
 * outcome (which halves the prediction) is taken for the work finishing early and not for the OS
 * (or, on a VM, the hypervisor waking a halted vCPU) being slow; the estimator itself stays as it
 * is:
 * <ul>
 *   <li>where the allowance outgrows the plan's margin, the parker ends its deadline sleep earlier
 *       by the excess;
 *   <li>a sleep that overslept past the allowance does not feed a {@code Late} outcome to the
 *       estimator (the store may well have come after the planned wake).
 * </ul>
 *
 * <p>Up at once to a larger oversleep, down by an eighth at each later timed sleep that ended a
 * wait's deadline sleep and was not cut short; at most {@link #CAP_NANOS}, so one long stall does
 * not make every later wait spin long. Sleeps that only reach a backstop (a 10 ms wait sleeps in
 * ten 1 ms pieces) raise it but do not decay it: decaying per piece would make its memory ten
 * times shorter at 10 ms than at 1 ms, so on a host whose wakes are often later than the margin
 * (the AMD EPYC VMs) a 10 ms wait's last piece would seldom be covered, its wake would come after
 * the store, and the censored {@code Late} would halve the prediction for a window of waits (see
 * docs/PARKER.md).
 * Parker loop only (it moves with the loop when a hosting thread is relieved).
 */
public final class Oversleep {
    /** The largest allowance: half a millisecond of extra spin per wait at most. */
    public static final long CAP_NANOS = 500_000;

    private long allowance;

    /** One deadline sleep asked to end at {@code askedAt} ended at {@code wokeAt}; an early end (a registration's wake) teaches nothing. */
    public void sample(long askedAt, long wokeAt) { sample(askedAt, wokeAt, true); }

    /** As {@link #sample(long, long)}; {@code decays} false for a sleep that only reached a backstop. */
    public void sample(long askedAt, long wokeAt, boolean decays) {
        long over = wokeAt - askedAt;
        if (over < 0) return;
        long kept = decays ? allowance - (allowance >> 3) : allowance;
        allowance = Math.max(Math.min(over, CAP_NANOS), kept);
    }

    /** The OS's recent lateness: a sleep later than this overslept abnormally. */
    public long allowanceNanos() { return allowance; }
}
