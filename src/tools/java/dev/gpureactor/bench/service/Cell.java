package dev.gpureactor.bench.service;

import java.util.List;
import java.util.Map;

/**
 * One mode at one client level in one round: what its measured window gave.
 *
 * @param rps                 right answers per second in the window
 * @param clientMicros        client latency (request written to answer read) p50, p99, p99.9, in µs
 * @param wakeMicros          store → handler running p50, p90, p99, in µs
 * @param processCpuUsPerReq  process CPU per answered request (clients and device included), µs
 * @param serverCpuUsPerReq   process CPU less the load generator's and the simulated device's threads, per request, µs;
 *                            NaN when the clients could not run on carriers of their own
 * @param groupCores          CPU by thread group over the window, in cores
 * @param threadCores         the same by thread name less its trailing number (what the groups are made of), in cores
 * @param counts              the correctness counts of the whole cell (warm-up included)
 * @param fates               the fates played in the whole cell (warm-up included), all 0 with fates off
 * @param registrationsAfter  the mode's unsettled registrations once every client had stopped (must be 0)
 * @param wakeP50PerSecond    with a warm-up profile: wake p50 (µs) in each second from the start; else empty
 * @param warmupRatio         with a warm-up profile: wake p50 over its first 3 s over that of its last 5 s (the
 *                            warm-up goal wants at most 1.5); else NaN
 */
public record Cell(String mode, int clients, int round, double seconds, long requests, double rps, double[] clientMicros,
                   double[] wakeMicros, double processCpuUsPerReq, double serverCpuUsPerReq, Map<String, Double> groupCores,
                   Map<String, Double> threadCores,
                   Ledger.Counts counts, Fates.Counts fates, long registrationsAfter, List<Double> wakeP50PerSecond,
                   double warmupRatio) {
    /** Whether every request was answered once, with the right payload, and the registrations went back to 0. */
    public boolean correct() { return counts.clean() && registrationsAfter == 0; }
}
