package dev.gpureactor.soak;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.loom.GpuReactor;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a soak runs.
 *
 * @param futures   futures in all, split evenly over the rounds
 * @param seconds   the device time the soak is paced to (the simulated kernels' durations are drawn
 *                  so that a round's work takes about seconds / rounds); 0 runs as fast as it can.
 *                  The run takes longer where the host cannot keep up, and says so.
 * @param rounds    rounds; after each, the registration count, the lines and the heap are checked
 * @param lines     completion lines, all eight slots of each in use; one is replaced every round
 * @param carriers  carrier threads of each reactor
 * @param seed      the seed of every random choice (plans, fates, waits, durations)
 * @param plan      the wait plan of every reactor; empty draws one per reactor from the seed
 * @param settle    how long a future may stay unsettled after its device finished before it counts
 *                  as a lost wake (generous: the backstop is about a millisecond)
 * @param closeWaits waits in flight when the close phase ({@link ClosePhase}) closes its reactor
 *                  after the rounds; 0 skips the phase
 */
public record SoakConfig(long futures, long seconds, int rounds, int lines, int carriers, long seed,
                         Optional<WaitPlan> plan, Duration settle, int closeWaits) {
    public SoakConfig {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(settle, "settle");
        range("futures", futures, 1, 1_000_000_000L);
        range("seconds", seconds, 0, 864_000);
        range("rounds", rounds, 1, 10_000);
        range("lines", lines, 1, 64);
        range("carriers", carriers, 1, 256);
        range("settle (ms)", settle.toMillis(), 100, 3_600_000);
        if (closeWaits != 0) range("close waits", closeWaits, ClosePhase.STREAMS, 1_000_000);
        if (futures < rounds) throw new ReactorException(ErrorCode.InvalidArgument, "futures", futures, ">= rounds (" + rounds + ")");
    }

    /** The defaults: 20,000 futures over 10 rounds in 30 s, on 4 lines, then a close under 2,000 waits. */
    public static SoakConfig defaults(long seed) {
        return new SoakConfig(20_000, 30, 10, 4, GpuReactor.defaultCarriers(), seed,
                Optional.empty(), Duration.ofSeconds(10), 2_000);
    }

    public SoakConfig withFutures(long n) { return new SoakConfig(n, seconds, rounds, lines, carriers, seed, plan, settle, closeWaits); }

    public SoakConfig withSeconds(long s) { return new SoakConfig(futures, s, rounds, lines, carriers, seed, plan, settle, closeWaits); }

    public SoakConfig withRounds(int r) { return new SoakConfig(futures, seconds, r, lines, carriers, seed, plan, settle, closeWaits); }

    public SoakConfig withLines(int l) { return new SoakConfig(futures, seconds, rounds, l, carriers, seed, plan, settle, closeWaits); }

    public SoakConfig withCarriers(int c) { return new SoakConfig(futures, seconds, rounds, lines, c, seed, plan, settle, closeWaits); }

    public SoakConfig withPlan(WaitPlan p) {
        return new SoakConfig(futures, seconds, rounds, lines, carriers, seed, Optional.of(Objects.requireNonNull(p, "plan")), settle, closeWaits);
    }

    public SoakConfig withSettle(Duration d) { return new SoakConfig(futures, seconds, rounds, lines, carriers, seed, plan, d, closeWaits); }

    public SoakConfig withCloseWaits(int n) { return new SoakConfig(futures, seconds, rounds, lines, carriers, seed, plan, settle, n); }

    private static void range(String name, long v, long min, long max) {
        if (v < min || v > max) throw new ReactorException(ErrorCode.InvalidArgument, name, v, min + ".." + max);
    }
}
