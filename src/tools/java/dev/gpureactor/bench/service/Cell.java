package dev.gpureactor.bench.service;

import dev.gpureactor.loom.RunStats;

import java.util.LinkedHashMap;
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
 * @param groupCores          CPU by thread group over the window, in cores; {@code jvm} is the process's less its Java
 *                            threads' (the JIT, the GC, and Java threads that ended inside the window)
 * @param threadCores         the same by thread name less its trailing number (what the groups are made of), in cores
 * @param groupSleeps         OS sleeps (voluntary context switches, {@link OsThreads}) per answered request by thread
 *                            group, the same groups less {@code jvm}; empty where the OS does not tell them
 * @param parkerPhases        a reactor mode's parkers over the window (see {@link #phases}): cores by phase, turns per
 *                            second, the share of empty turns, the share of wakes hosted and the tasks run from the
 *                            carriers' queue per wake; empty for the other modes
 * @param counts              the correctness counts of the whole cell (warm-up included)
 * @param fates               the fates played in the whole cell (warm-up included), all 0 with fates off
 * @param registrationsAfter  the mode's unsettled registrations once every client had stopped (must be 0)
 * @param wakeP50PerSecond    with a warm-up profile: wake p50 (µs) in each second from the start; else empty
 * @param wakesPerSecond      with a warm-up profile: handlers woken in each second from the start (the served rate);
 *                            else empty
 * @param warmupRatio         with a warm-up profile: wake p50 over its first 3 s over that of its last 5 s (the
 *                            warm-up goal wants at most 1.5); else NaN
 */
public record Cell(String mode, int clients, int round, double seconds, long requests, double rps, double[] clientMicros,
                   double[] wakeMicros, double processCpuUsPerReq, double serverCpuUsPerReq, Map<String, Double> groupCores,
                   Map<String, Double> threadCores, Map<String, Double> groupSleeps, Map<String, Double> parkerPhases,
                   Ledger.Counts counts, Fates.Counts fates, long registrationsAfter, List<Double> wakeP50PerSecond,
                   List<Long> wakesPerSecond, double warmupRatio) {
    /** Whether every request was answered once, with the right payload, and the registrations went back to 0. */
    public boolean correct() { return counts.clean() && registrationsAfter == 0; }

    /**
     * With a warm-up profile: the seconds from the start until the served rate first reaches 90 % of
     * the median rate of the last 5 seconds (its steady rate); -1 without a profile of at least 8 s.
     */
    public int secondsToSteadyRate() {
        if (wakesPerSecond.size() < 8) return -1;
        List<Long> last = wakesPerSecond.subList(wakesPerSecond.size() - 5, wakesPerSecond.size()).stream().sorted().toList();
        double steady = last.get(2);
        for (int i = 0; i < wakesPerSecond.size(); i++) {
            if (wakesPerSecond.get(i) >= 0.9 * steady) return i + 1;
        }
        return wakesPerSecond.size();
    }

    /**
     * The parkers' CPU by phase between two snapshots of one reactor, over {@code seconds}: the cores
     * each phase took ({@code turn}, {@code spin}, {@code host}, and {@code rest}, the OS's sleeps and
     * wakes: their CPU less the phases), the turns per second, the line parks and the sleeps (to a
     * deadline, or idle) per second (a turn after a hosted guest or an {@code Again} ends in neither,
     * so these count the OS waits the turns paid for), the share of turns that completed nothing, the
     * share of the waits the scans woke whose thread a parker ran itself (hosted): the rest went to the
     * carriers, whose hand-off makes the wake's tail (docs/SERVICE.md, "Where the tail at 512 comes
     * from"), and the tasks a relieved parker thread then ran from the carriers' queue per wait woken
     * (mostly wakes it could not host; any waiting task may be taken); and the turns carriers ran between
     * tasks on a parker's lent loop per second, with the share of the waits those turns completed.
     */
    public static Map<String, Double> phases(RunStats before, RunStats after, double seconds) {
        RunStats.ParkerPhases p = after.parkerPhases().since(before.parkerPhases());
        long cpu = after.parkerCpuNanos() - before.parkerCpuNanos();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("turn_cores", p.turnNanos() / 1e9 / seconds);
        m.put("spin_cores", p.spinNanos() / 1e9 / seconds);
        m.put("host_cores", p.hostNanos() / 1e9 / seconds);
        m.put("rest_cores", p.restNanos(cpu) / 1e9 / seconds);
        m.put("turns_per_s", p.turns() / seconds);
        m.put("empty_turn_share", p.turns() == 0 ? 0.0 : (double) p.emptyTurns() / p.turns());
        m.put("parks_per_s", (after.parked() - before.parked()) / seconds);
        m.put("sleeps_per_s", (after.slept() - before.slept()) / seconds);
        long woke = after.woke() - before.woke();
        m.put("hosted_share", perWake(after.hosted() - before.hosted(), woke));
        m.put("ran_waiting_share", perWake(after.ranWaiting() - before.ranWaiting(), woke));
        m.put("carrier_turns_per_s", p.carrierTurns() / seconds);
        m.put("carrier_woke_share", perWake(p.carrierWoke(), woke));
        return m;
    }

    /** {@code n} per wait woken; 0 for a window that woke none. */
    private static double perWake(long n, long woke) {
        return woke == 0 ? 0.0 : (double) n / woke;
    }
}
