package dev.gpureactor.core;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A duration in a message reads as a person writes it, not as ISO-8601 ("PT0.000000001S"). */
class DurationsTextTest {
    @Test
    void each_duration_in_its_own_unit_with_three_significant_digits_at_most() {
        assertEquals("1 ns", Durations.text(Duration.ofNanos(1)));
        assertEquals("999 ns", Durations.text(Duration.ofNanos(999)));
        assertEquals("1 µs", Durations.text(Duration.ofNanos(1_000)));
        assertEquals("250 µs", Durations.text(Duration.ofNanos(250_000)));
        assertEquals("1.5 ms", Durations.text(Duration.ofNanos(1_500_000)));
        assertEquals("1.23 ms", Durations.text(Duration.ofNanos(1_234_567)));
        assertEquals("2 s", Durations.text(Duration.ofSeconds(2)));
        assertEquals("60 s", Durations.text(Duration.ofMinutes(1)));
        assertEquals("PT2H", Durations.text(Duration.ofHours(2)));
    }

    @Test
    void a_limit_of_zero_or_less_says_it_does_not_wait() {
        assertEquals("0 (a limit of zero or less does not wait)", Durations.text(Duration.ZERO));
        assertEquals("-1 s (a limit of zero or less does not wait)", Durations.text(Duration.ofSeconds(-1)));
        Duration least = Duration.ofSeconds(Long.MIN_VALUE, 0); // negated, it overflows
        assertEquals(least + " (a limit of zero or less does not wait)", Durations.text(least));
        Duration most = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999); // in nanoseconds, it overflows
        assertEquals(most.toString(), Durations.text(most));
    }
}
