package dev.gpureactor.parker;

import dev.gpureactor.carrier.BacklogEvent;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The JFR backlog event's rate: at most one per {@link BacklogEvent#GAP_NANOS} per parker, and every
 * flip carried by exactly one event (an outside probe saw 630 events a second on one carrier).
 */
class BacklogSamplerTest {
    private static final long GAP = BacklogEvent.GAP_NANOS;

    @Test
    void the_first_flip_emits_at_once_and_the_flips_within_a_gap_ride_on_the_next_event() {
        BacklogSampler s = new BacklogSampler(1_000);
        assertEquals(1, s.flip(1_000), "the first flip is not held back");
        for (int i = 1; i <= 999; i++) {
            assertEquals(0, s.flip(1_000 + i * (GAP / 1_000)), "flip " + i + " is inside the gap");
        }
        assertEquals(1_000, s.flip(1_000 + GAP), "999 held flips and this one");
        assertEquals(0, s.flip(1_000 + GAP + 1));
        assertEquals(2, s.flip(1_000 + 3 * GAP), "a quiet stretch does not bank events");
    }

    @Test
    void ten_seconds_of_a_flip_every_millisecond_make_at_most_eleven_events_carrying_every_flip() {
        BacklogSampler s = new BacklogSampler(0);
        int events = 0, carried = 0, flips = 0;
        for (long t = 0; t <= 10 * GAP; t += 1_000_000) {
            flips++;
            int n = s.flip(t);
            if (n > 0) {
                events++;
                carried += n;
            }
        }
        assertEquals(11, events, "one at the start and one a second after");
        assertEquals(flips, carried, "every flip is in exactly one event");
    }

    @Test
    void the_gap_is_measured_by_difference_so_a_clock_that_wraps_past_long_max_keeps_the_rate() {
        long start = Long.MAX_VALUE - GAP / 2;
        BacklogSampler s = new BacklogSampler(start);
        assertEquals(1, s.flip(start));
        assertEquals(0, s.flip(start + GAP / 2 + 10), "wrapped, but only half a gap later");
        assertEquals(2, s.flip(start + GAP));
    }
}
