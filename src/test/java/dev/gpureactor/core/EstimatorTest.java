package dev.gpureactor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The deadline estimator on worked numbers: observe, predict and sleep, each checked against a hand computation. */
class EstimatorTest {
    /** margin 150 us, min_sleep 20 us, max_sleep 50 ms, window 8. */
    static final DeadlinePlan PLAN = new DeadlinePlan(150_000, 20_000, 50_000_000, 8);

    static PointEstimate exact(PointEstimate e, long... residuals) {
        for (long r : residuals) e = e.observe(PLAN, new Outcome.Exact(r));
        return e;
    }

    @Test
    void the_fixture_plan_is_the_fixture_text() {
        assertEquals(PLAN, WaitPlan.parse("poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=8")
                .predict().orElseThrow());
    }

    @Test
    void a_cold_point_never_sleeps() {
        assertEquals(OptionalLong.empty(), PointEstimate.cold().predictedNanos());
        assertEquals(OptionalLong.empty(), PointEstimate.cold().sleepNanos(PLAN));
        assertEquals(0, PointEstimate.cold().sampleCount());
        PointTable<Integer> table = new PointTable<>();
        assertEquals(OptionalLong.empty(), table.sleepNanos(7, PLAN));
        table.observe(1, PLAN, new Outcome.Exact(1_000_000));
        assertEquals(OptionalLong.empty(), table.sleepNanos(7, PLAN), "another key stays cold");
        assertEquals(OptionalLong.of(850_000), table.sleepNanos(1, PLAN));
    }

    @Test
    void samples_of_one_point_nine_and_one_point_one_ms_sleep_750_us() {
        PointEstimate e = exact(PointEstimate.cold(), 1_000_000, 900_000, 1_100_000);
        assertEquals(OptionalLong.of(900_000), e.predictedNanos());
        assertEquals(OptionalLong.of(750_000), e.sleepNanos(PLAN));

        PointTable<Integer> table = new PointTable<>();
        for (long r : new long[] {1_000_000, 900_000, 1_100_000}) table.observe(3, PLAN, new Outcome.Exact(r));
        assertEquals(OptionalLong.of(750_000), table.sleepNanos(3, PLAN));
    }

    @Test
    void eight_samples_of_two_ms_push_the_old_minimum_out_of_the_window() {
        PointEstimate e = exact(PointEstimate.cold(), 1_000_000, 900_000, 1_100_000);
        long[] expectedSleepAfter = {
            750_000, 750_000, 750_000, 750_000, 750_000, 750_000, // 0.9 ms still in the window
            950_000, // only 1.1 ms of the old samples left
            1_850_000 // the window is all 2.0 ms
        };
        for (int i = 0; i < 8; i++) {
            e = exact(e, 2_000_000);
            assertEquals(OptionalLong.of(expectedSleepAfter[i]), e.sleepNanos(PLAN), "after " + (i + 1) + " samples of 2 ms");
            assertTrue(e.sampleCount() <= 8);
        }
        assertEquals(8, e.sampleCount());
        assertEquals(OptionalLong.of(2_000_000), e.predictedNanos());
        assertEquals(OptionalLong.of(1_850_000), e.sleepNanos(PLAN));
    }

    @Test
    void a_residual_of_160_us_asks_for_10_us_which_is_under_min_sleep() {
        assertEquals(OptionalLong.empty(), exact(PointEstimate.cold(), 160_000).sleepNanos(PLAN));
    }

    @Test
    void a_residual_of_100_us_is_below_the_margin() {
        assertEquals(OptionalLong.empty(), exact(PointEstimate.cold(), 100_000).sleepNanos(PLAN));
    }

    @Test
    void the_edges_of_min_sleep_and_margin() {
        assertEquals(OptionalLong.of(20_000), exact(PointEstimate.cold(), 170_000).sleepNanos(PLAN), "exactly min_sleep sleeps");
        assertEquals(OptionalLong.empty(), exact(PointEstimate.cold(), 169_999).sleepNanos(PLAN), "one ns under min_sleep");
        assertEquals(OptionalLong.empty(), exact(PointEstimate.cold(), 150_000).sleepNanos(PLAN), "prediction == margin");
        assertEquals(OptionalLong.empty(), exact(PointEstimate.cold(), 0).sleepNanos(PLAN));
        DeadlinePlan noFloor = new DeadlinePlan(150_000, 0, 50_000_000, 8);
        assertEquals(OptionalLong.empty(), exact(PointEstimate.cold(), 150_000).observe(noFloor, new Outcome.Exact(150_000))
                .sleepNanos(noFloor), "a sleep of 0 is no sleep even with min_sleep 0");
        assertEquals(OptionalLong.of(1), PointEstimate.cold().observe(noFloor, new Outcome.Exact(150_001)).sleepNanos(noFloor));
    }

    @Test
    void the_largest_residual_is_capped_at_max_sleep() {
        PointEstimate e = exact(PointEstimate.cold(), Long.MAX_VALUE);
        assertEquals(OptionalLong.of(Long.MAX_VALUE), e.predictedNanos());
        assertEquals(OptionalLong.of(50_000_000), e.sleepNanos(PLAN));
        assertEquals(OptionalLong.of(50_000_000), exact(PointEstimate.cold(), 50_150_001).sleepNanos(PLAN));
        assertEquals(OptionalLong.of(50_000_000), exact(PointEstimate.cold(), 50_150_000).sleepNanos(PLAN));
        assertEquals(OptionalLong.of(49_999_999), exact(PointEstimate.cold(), 50_149_999).sleepNanos(PLAN));
    }

    @Test
    void a_late_wake_only_lowers_the_prediction_and_halves_it_when_repeated() {
        PointEstimate e = exact(PointEstimate.cold(), 1_000_000);
        // Woke at 5 ms: the true residual is at most 5 ms, which says nothing below 1 ms: censored to min(5, 1) / 2.
        e = e.observe(PLAN, new Outcome.Late(5_000_000));
        assertEquals(OptionalLong.of(500_000), e.predictedNanos());
        e = e.observe(PLAN, new Outcome.Late(5_000_000));
        assertEquals(OptionalLong.of(250_000), e.predictedNanos());
        e = e.observe(PLAN, new Outcome.Late(5_000_000));
        assertEquals(OptionalLong.of(125_000), e.predictedNanos());
        assertEquals(OptionalLong.empty(), e.sleepNanos(PLAN), "125 us - 150 us margin: no sleep");

        // A late wake before the prediction halves the wake time, which is lower still.
        PointEstimate f = exact(PointEstimate.cold(), 1_000_000).observe(PLAN, new Outcome.Late(600_000));
        assertEquals(OptionalLong.of(300_000), f.predictedNanos());

        // A late wake on a cold point records half the wake time.
        assertEquals(OptionalLong.of(400_000), PointEstimate.cold().observe(PLAN, new Outcome.Late(800_000)).predictedNanos());
    }

    @Test
    void a_late_wake_never_raises_the_prediction_whatever_the_window_holds() {
        long[] wakes = {0, 1, 999, 1_000_000, 2_000_000, Long.MAX_VALUE};
        for (long base : new long[] {1, 300_000, 1_000_000, Long.MAX_VALUE}) {
            for (long woke : wakes) {
                PointEstimate e = exact(PointEstimate.cold(), base, base / 2 + 7, base);
                long before = e.predictedNanos().getAsLong();
                long after = e.observe(PLAN, new Outcome.Late(woke)).predictedNanos().getAsLong();
                assertTrue(after <= before, "late " + woke + " raised " + before + " to " + after);
                assertEquals(Math.min(woke, before) / 2, after, "late " + woke + " is censored to min(woke, predicted) / 2");
            }
        }
    }

    @Test
    void blocked_changes_nothing() {
        PointEstimate e = exact(PointEstimate.cold(), 1_000_000, 900_000);
        assertSame(e, e.observe(PLAN, new Outcome.Blocked(12_345_678)));
        assertSame(PointEstimate.cold(), PointEstimate.cold().observe(PLAN, new Outcome.Blocked(1)));

        PointTable<String> table = new PointTable<>();
        table.observe("k", PLAN, new Outcome.Blocked(5_000_000));
        assertEquals(0, table.estimate("k").sampleCount());
        assertEquals(0, table.size(), "a blocked wait adds no point");
        table.observe("k", PLAN, new Outcome.Exact(1_000_000));
        table.observe("k", PLAN, new Outcome.Blocked(5_000_000));
        assertEquals(1, table.estimate("k").sampleCount());
        assertEquals(OptionalLong.of(850_000), table.sleepNanos("k", PLAN));
    }

    @Test
    void immediate_is_an_exact_residual() {
        PointEstimate e = exact(PointEstimate.cold(), 1_000_000).observe(PLAN, new Outcome.Immediate(3_000));
        assertEquals(OptionalLong.of(3_000), e.predictedNanos());
        assertEquals(OptionalLong.empty(), e.sleepNanos(PLAN));
    }

    @Test
    void negative_residuals_count_as_zero() {
        assertEquals(OptionalLong.of(0), PointEstimate.cold().observe(PLAN, new Outcome.Exact(-5)).predictedNanos());
        assertEquals(OptionalLong.of(0), PointEstimate.cold().observe(PLAN, new Outcome.Late(-5)).predictedNanos());
    }

    @Test
    void the_window_is_trimmed_when_it_shrinks_and_grows_back_one_sample_at_a_time() {
        PointEstimate e = exact(PointEstimate.cold(), 100_000, 3_000_000, 2_000_000, 4_000_000, 5_000_000, 6_000_000, 7_000_000, 8_000_000);
        assertEquals(8, e.sampleCount());
        assertEquals(OptionalLong.of(100_000), e.predictedNanos());

        DeadlinePlan two = new DeadlinePlan(150_000, 20_000, 50_000_000, 2);
        PointEstimate narrow = e.observe(two, new Outcome.Exact(9_000_000));
        assertEquals(2, narrow.sampleCount());
        assertEquals(OptionalLong.of(8_000_000), narrow.predictedNanos(), "kept the newest two: 8 ms and 9 ms");

        DeadlinePlan one = new DeadlinePlan(150_000, 20_000, 50_000_000, 1);
        PointEstimate single = narrow.observe(one, new Outcome.Exact(10_000_000));
        assertEquals(1, single.sampleCount());
        assertEquals(OptionalLong.of(10_000_000), single.predictedNanos());

        PointEstimate wide = single.observe(PLAN, new Outcome.Exact(11_000_000));
        assertEquals(2, wide.sampleCount(), "a wider window grows by one sample per observation");
        assertEquals(OptionalLong.of(10_000_000), wide.predictedNanos());

        DeadlinePlan max = new DeadlinePlan(0, 0, 1_000_000, DeadlinePlan.WINDOW_MAX);
        PointEstimate full = PointEstimate.cold();
        for (int i = 0; i < 40; i++) full = full.observe(max, new Outcome.Exact(1_000 + i));
        assertEquals(DeadlinePlan.WINDOW_MAX, full.sampleCount());
        assertEquals(OptionalLong.of(1_000 + 40 - DeadlinePlan.WINDOW_MAX), full.predictedNanos());
    }

    @Test
    void observing_returns_a_new_estimate_and_leaves_the_old_one_alone() {
        PointEstimate e = exact(PointEstimate.cold(), 1_000_000);
        PointEstimate f = exact(e, 500_000);
        assertEquals(OptionalLong.of(1_000_000), e.predictedNanos());
        assertEquals(OptionalLong.of(500_000), f.predictedNanos());
        assertEquals(0, PointEstimate.cold().sampleCount());
    }

    @Test
    void no_sleep_is_ever_longer_than_max_sleep() {
        for (long max : new long[] {0, 20_000, 1_000_000, 50_000_000}) {
            DeadlinePlan p = new DeadlinePlan(150_000, Math.min(20_000, max), max, 8);
            for (long r : new long[] {0, 170_000, 1_000_000, 50_150_000, Long.MAX_VALUE / 2, Long.MAX_VALUE}) {
                OptionalLong s = PointEstimate.cold().observe(p, new Outcome.Exact(r)).sleepNanos(p);
                if (s.isPresent()) {
                    assertTrue(s.getAsLong() <= max, r + " asked " + s + " over max " + max);
                    assertTrue(s.getAsLong() > 0);
                }
            }
        }
    }

    @Test
    void the_table_keeps_one_estimate_per_key() {
        PointTable<Integer> table = new PointTable<>();
        table.observe(1, PLAN, new Outcome.Exact(1_000_000));
        table.observe(2, PLAN, new Outcome.Exact(2_000_000));
        table.observe(1, PLAN, new Outcome.Exact(900_000));
        assertEquals(2, table.size());
        assertEquals(OptionalLong.of(750_000), table.sleepNanos(1, PLAN));
        assertEquals(OptionalLong.of(1_850_000), table.sleepNanos(2, PLAN));
        assertEquals(2, table.estimate(1).sampleCount());
    }

    @Test
    void spread_is_the_kept_samples_range_and_zero_below_two_samples() {
        assertEquals(0, PointEstimate.cold().spreadNanos());
        assertEquals(0, exact(PointEstimate.cold(), 1_000_000).spreadNanos());
        assertEquals(200_000, exact(PointEstimate.cold(), 1_000_000, 900_000, 1_100_000).spreadNanos());
        // The window keeps the last 8: an old sample slides out of the spread.
        PointEstimate e = exact(PointEstimate.cold(), 5_000_000, 5_000_000, 1_000_000, 1_000_000, 1_000_000,
                1_000_000, 1_000_000, 1_000_000, 1_050_000, 1_050_000);
        assertEquals(50_000, e.spreadNanos());
    }

    @Test
    void from_four_exact_samples_one_slow_outlier_does_not_widen_the_spread_but_two_do() {
        PointEstimate sharp = exact(PointEstimate.cold(), 10_000_000, 10_100_000, 10_050_000);
        assertEquals(100_000, sharp.spreadNanos());
        assertEquals(100_000, exact(sharp, 14_600_000).spreadNanos(), "one completion 4.6 ms late: still sharp");
        assertEquals(4_600_000, exact(sharp, 14_600_000, 14_600_000).spreadNanos(), "two: the work spreads");
        assertEquals(4_600_000, exact(PointEstimate.cold(), 10_000_000, 14_600_000, 12_000_000).spreadNanos(),
                "below four samples the whole range");
    }

    @Test
    void a_late_wakes_censored_sample_is_no_part_of_the_spread() {
        PointEstimate e = exact(PointEstimate.cold(), 10_000_000, 10_100_000).observe(PLAN, new Outcome.Late(10_050_000));
        assertEquals(OptionalLong.of(5_000_000), e.predictedNanos(), "the crate's halving is kept");
        assertEquals(100_000, e.spreadNanos(), "the spread of the work's own completions");
    }

    @Test
    void past_a_halved_prediction_the_resume_sleep_is_the_exact_floor_once_the_work_was_measured_again() {
        PointEstimate e = exact(PointEstimate.cold(), 10_000_000, 10_100_000);
        assertEquals(OptionalLong.empty(), e.resumeSleepNanos(PLAN), "no late wake: the prediction is the floor");
        e = e.observe(PLAN, new Outcome.Late(10_050_000));
        assertEquals(OptionalLong.empty(), e.resumeSleepNanos(PLAN),
                "right after a late wake: watch from the halved prediction, so work that got faster is measured");
        PointEstimate measured = exact(e, 10_200_000);
        assertEquals(OptionalLong.of(5_000_000 - 150_000), measured.sleepNanos(PLAN), "the halved prediction stays for the window");
        assertEquals(OptionalLong.of(10_000_000 - 150_000), measured.resumeSleepNanos(PLAN), "the exact floor, less the margin");
        PointEstimate faster = exact(e, 6_000_000);
        assertEquals(OptionalLong.of(6_000_000 - 150_000), faster.resumeSleepNanos(PLAN), "work that got faster lowers the floor");
        DeadlinePlan capped = new DeadlinePlan(150_000, 20_000, 8_000_000, 8);
        assertEquals(OptionalLong.of(8_000_000), measured.resumeSleepNanos(capped), "capped at max_sleep as the sleep is");
    }

    /** A random outcome of every kind, residuals from 0 to 10 ms (some negative: clamped). */
    private static Outcome randomOutcome(SplittableRandom r) {
        long v = r.nextLong(-1_000, 10_000_000);
        return switch (r.nextInt(4)) {
            case 0 -> new Outcome.Immediate(v);
            case 1 -> new Outcome.Exact(v);
            case 2 -> new Outcome.Late(v);
            default -> new Outcome.Blocked(v);
        };
    }

    /** A start of any length, some longer than the tests' windows (a point kept under a wider plan). */
    private static PointEstimate randomStart(SplittableRandom r) {
        PointEstimate start = PointEstimate.cold();
        DeadlinePlan wide = new DeadlinePlan(150_000, 20_000, 50_000_000, 12);
        for (int i = r.nextInt(14); i > 0; i--) start = start.observe(wide, new Outcome.Exact(r.nextLong(0, 10_000_000)));
        return start;
    }

    @Test
    void observing_many_outcomes_at_once_is_observing_each_in_turn() {
        SplittableRandom r = new SplittableRandom(19);
        for (int round = 0; round < 2_000; round++) {
            DeadlinePlan plan = new DeadlinePlan(150_000, 20_000, 50_000_000, 1 + r.nextInt(10));
            PointEstimate start = randomStart(r);
            List<Outcome> outcomes = new ArrayList<>();
            for (int i = r.nextInt(40); i > 0; i--) outcomes.add(randomOutcome(r));
            PointEstimate oneByOne = start;
            for (Outcome o : outcomes) oneByOne = oneByOne.observe(plan, o);
            PointEstimate all = start.observeAll(plan, outcomes);
            assertEquals(oneByOne.toString(), all.toString(), "samples after " + outcomes + " on " + start);
            assertEquals(oneByOne.predictedNanos(), all.predictedNanos());
            assertEquals(oneByOne.spreadNanos(), all.spreadNanos());
            assertEquals(oneByOne.resumeSleepNanos(plan), all.resumeSleepNanos(plan));
        }
    }

    @Test
    void a_parkers_run_of_one_kind_is_observing_each_in_turn() {
        SplittableRandom r = new SplittableRandom(23);
        for (int round = 0; round < 2_000; round++) {
            DeadlinePlan plan = new DeadlinePlan(150_000, 20_000, 50_000_000, 1 + r.nextInt(10));
            PointEstimate start = randomStart(r);
            boolean late = r.nextBoolean();
            int n = r.nextInt(40); // runs longer than the window too: an exact one folds only its tail
            long[] residuals = new long[n + r.nextInt(3)]; // room past n: only the first n count
            for (int i = 0; i < residuals.length; i++) residuals[i] = r.nextLong(-1_000, 10_000_000);
            PointEstimate oneByOne = start;
            for (int i = 0; i < n; i++) oneByOne = oneByOne.observe(plan, late ? new Outcome.Late(residuals[i]) : new Outcome.Exact(residuals[i]));
            PointEstimate run = start.observeRun(plan, residuals, n, late);
            assertEquals(oneByOne.toString(), run.toString(), (late ? "late" : "exact") + " run of " + n + " on " + start);
            assertEquals(oneByOne.spreadNanos(), run.spreadNanos());
            assertEquals(oneByOne.resumeSleepNanos(plan), run.resumeSleepNanos(plan));
        }
        PointEstimate e = exact(PointEstimate.cold(), 1_000_000);
        assertSame(e, e.observeRun(PLAN, new long[] {5}, 0, false), "an empty run keeps the estimate");
    }

    @Test
    void observing_nothing_or_only_blocked_waits_keeps_the_estimate() {
        PointEstimate e = exact(PointEstimate.cold(), 1_000_000, 2_000_000);
        assertSame(e, e.observeAll(PLAN, List.of()));
        assertSame(e, e.observeAll(PLAN, List.of(new Outcome.Blocked(5), new Outcome.Blocked(7))));
    }

    @Test
    void a_table_folds_a_run_of_outcomes_into_one_point_as_one_observation_each() {
        PointTable<String> one = new PointTable<>(), all = new PointTable<>();
        List<Outcome> run = List.of(new Outcome.Exact(3_000_000), new Outcome.Late(5_000_000), new Outcome.Exact(900_000),
                new Outcome.Blocked(1), new Outcome.Late(400_000));
        for (Outcome o : run) one.observe("k", PLAN, o);
        all.observeAll("k", PLAN, run);
        assertEquals(one.estimate("k").toString(), all.estimate("k").toString());
        all.observeAll("b", PLAN, List.of(new Outcome.Blocked(5_000_000)));
        assertEquals(1, all.size(), "outcomes that taught nothing add no point");
    }
}
