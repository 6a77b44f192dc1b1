package dev.gpureactor.bench.service;

import dev.gpureactor.loom.RunStats;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a warm-up profile's cell says of its own warm-up, and what a window's parker phases say. */
class CellTest {
    private static Cell profiled(List<Long> wakesPerSecond) {
        return new Cell("reactor", 512, 0, wakesPerSecond.size(), 0, 0, new double[3], new double[3], 0, 0, Map.of(), Map.of(), Map.of(), Map.of(),
                new Ledger.Counts(0, 0, 0, 0, 0, 0, 0), new Fates.Counts(0, 0, 0, 0, 0, 0, 0, ""), 0, List.of(), wakesPerSecond, Double.NaN);
    }

    @Test
    void the_steady_rate_is_reached_in_the_first_second_at_90_percent_of_the_last_five_seconds_median() {
        assertEquals(4, profiled(List.of(100L, 200L, 500L, 900L, 800L, 1000L, 1000L, 990L, 1010L, 1000L)).secondsToSteadyRate());
        assertEquals(1, profiled(List.of(950L, 1000L, 1000L, 1000L, 1000L, 1000L, 1000L, 1000L)).secondsToSteadyRate());
        assertEquals(-1, profiled(List.of(1L, 2L, 3L)).secondsToSteadyRate(), "too short a profile to tell");
    }

    private static RunStats stats(long woke, long hosted, long cpuNanos, long turns, long emptyTurns, long turnNanos) {
        return stats(woke, hosted, 0, cpuNanos, turns, emptyTurns, turnNanos);
    }

    private static RunStats stats(long woke, long hosted, long ranWaiting, long cpuNanos, long turns, long emptyTurns, long turnNanos) {
        return new RunStats(0, woke, 0, 0, 0, 0, 0, 0, 0, 0, hosted, 0, ranWaiting, 0, 0, 2, cpuNanos, 0,
                new RunStats.ParkerPhases(turns, emptyTurns, turnNanos, 0, 0, 0, 0));
    }

    @Test
    void a_windows_phases_are_the_differences_between_its_snapshots_and_the_hosted_share_is_per_wait_woken() {
        RunStats before = stats(1_000, 900, 5_000_000_000L, 10_000, 7_000, 20_000_000);
        RunStats after = stats(5_000, 3_300, 7_000_000_000L, 30_000, 22_000, 60_000_000);
        Map<String, Double> p = Cell.phases(before, after, 2.0);
        assertEquals(0.6, p.get("hosted_share"), 1e-9, "2,400 of the window's 4,000 wakes were hosted");
        assertEquals(0.75, p.get("empty_turn_share"), 1e-9, "15,000 of 20,000 turns completed nothing");
        assertEquals(10_000, p.get("turns_per_s"), 1e-9);
        assertEquals(0.02, p.get("turn_cores"), 1e-9, "40 ms of turns in 2 s");
        assertEquals(0.98, p.get("rest_cores"), 1e-9, "2 s of parker CPU less the 40 ms of turns, over 2 s");
        assertEquals(0.0, Cell.phases(before, before, 2.0).get("hosted_share"), "a window with no wake hosts none");
        RunStats ranBefore = stats(1_000, 900, 300, 5_000_000_000L, 10_000, 7_000, 20_000_000);
        RunStats ranAfter = stats(5_000, 3_300, 1_100, 7_000_000_000L, 30_000, 22_000, 60_000_000);
        assertEquals(0.2, Cell.phases(ranBefore, ranAfter, 2.0).get("ran_waiting_share"), 1e-9,
                "800 of the window's 4,000 wakes ran from the queue on a relieved parker thread");
    }

    @Test
    void a_windows_parks_and_sleeps_are_counted_apart_from_its_turns() {
        RunStats before = new RunStats(0, 0, 40, 1_000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0,
                new RunStats.ParkerPhases(2_000, 0, 0, 0, 0, 0, 0));
        RunStats after = new RunStats(0, 0, 240, 15_000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0,
                new RunStats.ParkerPhases(22_000, 0, 0, 0, 0, 0, 0));
        Map<String, Double> p = Cell.phases(before, after, 2.0);
        assertEquals(10_000, p.get("turns_per_s"), 1e-9);
        assertEquals(7_000, p.get("parks_per_s"), 1e-9, "14,000 of the window's 20,000 turns ended in a park");
        assertEquals(100, p.get("sleeps_per_s"), 1e-9, "200 sleeps (to a deadline, or idle) in 2 s");
    }
}
