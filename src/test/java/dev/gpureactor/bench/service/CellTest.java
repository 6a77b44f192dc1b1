package dev.gpureactor.bench.service;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a warm-up profile's cell says of its own warm-up. */
class CellTest {
    private static Cell profiled(List<Long> wakesPerSecond) {
        return new Cell("reactor", 512, 0, wakesPerSecond.size(), 0, 0, new double[3], new double[3], 0, 0, Map.of(), Map.of(), Map.of(),
                new Ledger.Counts(0, 0, 0, 0, 0, 0, 0), new Fates.Counts(0, 0, 0, 0, 0, 0, 0, ""), 0, List.of(), wakesPerSecond, Double.NaN);
    }

    @Test
    void the_steady_rate_is_reached_in_the_first_second_at_90_percent_of_the_last_five_seconds_median() {
        assertEquals(4, profiled(List.of(100L, 200L, 500L, 900L, 800L, 1000L, 1000L, 990L, 1010L, 1000L)).secondsToSteadyRate());
        assertEquals(1, profiled(List.of(950L, 1000L, 1000L, 1000L, 1000L, 1000L, 1000L, 1000L)).secondsToSteadyRate());
        assertEquals(-1, profiled(List.of(1L, 2L, 3L)).secondsToSteadyRate(), "too short a profile to tell");
    }
}
