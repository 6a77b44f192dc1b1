package dev.gpureactor.core;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The checks of two former jcstress tests that could not fail for a concurrency reason
 * (docs/JCSTRESS.md): {@code EstimatorStress} raced two observations through
 * {@code ConcurrentHashMap.compute}, which serialises them, so only the two sequential orders can
 * happen; {@code WrappingOrderStress} read one slot repeatedly while it was stored to, and
 * per-location coherence alone keeps those reads monotone, so only the wrapping compare could
 * fail it. Both are checked here, deterministically, in every order.
 */
class ConcurrencyFreeChecksTest {
    private static final DeadlinePlan PLAN = new DeadlinePlan(10_000, 20_000, 50_000, 8);

    @Test
    void an_exact_and_a_late_observation_in_either_order_keep_both_samples_and_never_raise_the_prediction() {
        PointTable<String> exactFirst = new PointTable<>();
        exactFirst.observe("kernel", PLAN, new Outcome.Exact(100_000));
        exactFirst.observe("kernel", PLAN, new Outcome.Late(150_000));
        assertEquals(List.of(2L, 50_000L, 40_000L), seen(exactFirst), "exact first: the late wake censored to min(150, 100)/2");

        PointTable<String> lateFirst = new PointTable<>();
        lateFirst.observe("kernel", PLAN, new Outcome.Late(150_000));
        lateFirst.observe("kernel", PLAN, new Outcome.Exact(100_000));
        assertEquals(List.of(2L, 75_000L, 50_000L), seen(lateFirst), "late first: 150/2, the sleep capped at max_sleep");
    }

    private static List<Long> seen(PointTable<String> t) {
        PointEstimate e = t.estimate("kernel");
        return List.of((long) e.sampleCount(), e.predictedNanos().orElse(-1), t.sleepNanos("kernel", PLAN).orElse(-1));
    }

    @Test
    void reached_never_falls_while_the_word_walks_across_both_wrap_boundaries() {
        CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "wrap", () -> { });
        long[] starts = {0xFFFF_FFFF_FFFF_FFFEL, Long.MAX_VALUE - 1};
        for (int s = 0; s < starts.length; s++) {
            Slot slot = Slot.of(s);
            long w0 = starts[s];
            List<MemoryDescriptor> targets = new ArrayList<>();
            for (int k = 1; k <= 3; k++) targets.add(new MemoryDescriptor(line, slot, w0 + k));
            boolean[] was = new boolean[targets.size()];
            for (int step = 0; step <= 4; step++) {
                line.store(slot, w0 + step);
                for (int k = 0; k < targets.size(); k++) {
                    boolean now = targets.get(k).isComplete();
                    assertFalse(was[k] && !now, "slot " + s + " target +" + (k + 1) + " fell back at step " + step);
                    assertEquals(step >= k + 1, now, "slot " + s + " target +" + (k + 1) + " at step " + step);
                    was[k] = now;
                }
            }
        }
    }
}
