package dev.gpureactor.loom;

/**
 * What a reactor did: task runs on the carriers ({@code polls}),
 * waits the parkers' scans woke ({@code woke}), parker OS sleeps ({@code slept}), parker line
 * parks ({@code parked}), backstop queries, and the carriers' idle and busy time. The share of the
 * waiting that was filled with work is {@code busy / (busy + idle)}; {@code busy} and {@code idle}
 * are summed over carriers (idle is the carriers' wall time
 * less busy).
 *
 * <p>The carrier statistics ({@code polls}, {@code busyNanos}, {@code idleNanos}) are counted by
 * each carrier in a tally of its own and summed when read ({@code carrier.CarrierTally}): each carrier's
 * part is at most a little behind, and the sum is no snapshot of one moment. {@code polls} is
 * exact once the carriers are quiet. {@code busyNanos} is an estimate: each carrier times its first
 * task and then one task in 8 at random, counted 8 times (unbiased; over a few thousand tasks within
 * a few per cent). Over a few long tasks it can be far off either way, past the carriers' whole wall
 * time even (one 150 ms task sampled counts 1.2 s); {@code idleNanos} is the wall time less it, at
 * least 0, so {@code filled} then reads 1 until enough tasks ran.
 *
 * @param polls         tasks the carriers ran (summed over per-carrier counts)
 * @param woke          waits the parkers' scans woke (each completed wait once)
 * @param slept         OS sleeps of the parkers: to a deadline, or idle until a registration
 * @param parked        line parks of the parkers (hardware word wait or the pure-Java park)
 * @param queried       backstop queries of a port (the error authority)
 * @param idleNanos     carrier time not spent running tasks, summed over carriers
 * @param busyNanos     carrier time spent running tasks, summed over carriers (estimated, see above)
 * @param registrations waits registered with a parker and not yet settled: 0 when quiet
 * @param parkersStarted parker threads whose loop started
 * @param parkersDied   times a parker's waits failed {@link dev.gpureactor.core.ErrorCode#ParkerDied}
 *                      (an exception in its loop; an Error also ends the thread)
 * @param hosted        woken virtual threads a parker ran itself (hosting) instead of handing them to a carrier
 * @param relieved      times a registration or close took a line's loop from a parker thread that was running a guest
 * @param ranWaiting    tasks still waiting for a carrier that a relieved parker thread ran before it stood by
 *                      again: mostly a second wake of its own turn, which it could not host (counted in {@code polls}
 *                      too, as the pool ran them; not in {@code hosted})
 * @param queueDepth    tasks (started or woken virtual threads, callbacks) waiting for a carrier now, approximately
 *                      ({@code CarrierPool.queueDepth()}); a backlog shows here first
 * @param liveThreads   virtual threads of the carrier pool that began running and have not ended, parked and
 *                      adopted ones included; one started but not yet run is in {@code queueDepth}
 * @param carriers      carrier threads of the pool (0 on the JDK's default scheduler)
 * @param parkerCpuNanos CPU time the parker threads of all lines used (thread CPU time, sampled at each of their
 *                       sleeps and at most every millisecond of parking, so a little behind; a guest hosted
 *                       after the loop went to the standby is not counted, one hosted while the lines were
 *                       idle is);
 *                       0 where the JVM cannot measure thread CPU time
 * @param compensations  extra carriers started to stand in for carriers a pinned virtual thread blocked,
 *                       or one blocked in the OS (a read of a pipe, a blocking downcall) ({@code carrier.CarrierWatch});
 *                       0 in a pool whose threads never block while pinned or in the OS
 * @param parkerPhases   where the parkers' time went between their sleeps, by phase, booked with their CPU samples
 */
public record RunStats(long polls, long woke, long slept, long parked, long queried, long idleNanos, long busyNanos,
                       long registrations, long parkersStarted, long parkersDied, long hosted, long relieved,
                       long ranWaiting, long queueDepth, long liveThreads, int carriers, long parkerCpuNanos,
                       long compensations, ParkerPhases parkerPhases) {
    /**
     * Where the parker threads' time went, by phase: wall time (System.nanoTime) measured on the
     * parker threads while they run, booked with their CPU samples, so that {@code parkerCpuNanos} less
     * these phases is what the OS's sleeps and wakes, and the loop around them, cost
     * ({@link #restNanos}). A phase of a thread preempted mid-way counts the time it was off its core.
     *
     * @param turns      turns of the parkers' loops (snapshot every line, take in registrations, scan, decide)
     * @param emptyTurns turns that completed no wait: a slice, park or sleep that ended with nothing reached
     * @param turnNanos  time in the turns
     * @param spinNanos  time spinning in a park before its OS sleep (none on a hardware park)
     * @param hostNanos  time running hosted virtual threads on a parker while its lines had nothing else to watch
     *                   (the handlers' own work, not waiting; a guest run after handing the loop over is the
     *                   user's and, as in {@code parkerCpuNanos}, not booked)
     * @param carrierTurns turns a carrier ran between two tasks on the loop of a parker that slept out a polling
     *                     park ({@code Builder.carrierTurns}; not in {@code turns}, and their time is the carriers')
     * @param carrierWoke  waits those carrier turns completed (counted in {@code woke} too)
     */
    public record ParkerPhases(long turns, long emptyTurns, long turnNanos, long spinNanos, long hostNanos,
                               long carrierTurns, long carrierWoke) {
        /**
         * The part of {@code cpuNanos} (the parkers' CPU time, {@link RunStats#parkerCpuNanos}) no phase
         * accounts for: the OS's sleeps and wakes and the loop's bookkeeping around them.
         *
         * @param cpuNanos the parkers' CPU time over the same span
         * @return {@code cpuNanos} less every phase, at least 0
         */
        public long restNanos(long cpuNanos) { return Math.max(0, cpuNanos - turnNanos - spinNanos - hostNanos); }

        /**
         * These phases less {@code earlier}'s: what was booked between two snapshots.
         *
         * @param earlier an earlier snapshot of the same reactor
         * @return the difference, phase by phase
         */
        public ParkerPhases since(ParkerPhases earlier) {
            return new ParkerPhases(turns - earlier.turns, emptyTurns - earlier.emptyTurns, turnNanos - earlier.turnNanos,
                    spinNanos - earlier.spinNanos, hostNanos - earlier.hostNanos, carrierTurns - earlier.carrierTurns,
                    carrierWoke - earlier.carrierWoke);
        }
    }

    /**
     * Share of carrier time spent running tasks.
     *
     * @return {@code busyNanos / (busyNanos + idleNanos)}, 0..1; 0 before any carrier time
     */
    public double filled() {
        long total = idleNanos + busyNanos;
        return total == 0 ? 0 : (double) busyNanos / total;
    }
}
