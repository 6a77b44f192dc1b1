package dev.gpureactor.parker;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The rate of the parker's frequent JFR events (carrier backlog, hosting relief): at most one per
 * {@link EventSampler#GAP_NANOS} per parker, and every occurrence carried by exactly one event.
 */
class EventSamplerTest {
    private static final long GAP = EventSampler.GAP_NANOS;

    @Test
    void the_first_flip_emits_at_once_and_the_flips_within_a_gap_ride_on_the_next_event() {
        EventSampler s = new EventSampler(1_000);
        assertEquals(1, s.occurred(1_000), "the first flip is not held back");
        for (int i = 1; i <= 999; i++) {
            assertEquals(0, s.occurred(1_000 + i * (GAP / 1_000)), "flip " + i + " is inside the gap");
        }
        assertEquals(1_000, s.occurred(1_000 + GAP), "999 held flips and this one");
        assertEquals(0, s.occurred(1_000 + GAP + 1));
        assertEquals(2, s.occurred(1_000 + 3 * GAP), "a quiet stretch does not bank events");
    }

    @Test
    void ten_seconds_of_a_flip_every_millisecond_make_at_most_eleven_events_carrying_every_flip() {
        EventSampler s = new EventSampler(0);
        int events = 0, carried = 0, flips = 0;
        for (long t = 0; t <= 10 * GAP; t += 1_000_000) {
            flips++;
            int n = s.occurred(t);
            if (n > 0) {
                events++;
                carried += n;
            }
        }
        assertEquals(11, events, "one at the start and one a second after");
        assertEquals(flips, carried, "every flip is in exactly one event");
    }

    @Test
    void the_occurrences_held_back_when_the_owner_leaves_are_taken_once() {
        EventSampler s = new EventSampler(0);
        assertEquals(1, s.occurred(0));
        assertEquals(0, s.occurred(1));
        assertEquals(0, s.occurred(2));
        assertEquals(2, s.takeUncarried(), "the two no event carried");
        assertEquals(0, s.takeUncarried(), "taken once");
        assertEquals(0, s.occurred(3), "the gap still runs from the last event");
        assertEquals(1, s.takeUncarried());
    }

    @Test
    void the_gap_is_measured_by_difference_so_a_clock_that_wraps_past_long_max_keeps_the_rate() {
        long start = Long.MAX_VALUE - GAP / 2;
        EventSampler s = new EventSampler(start);
        assertEquals(1, s.occurred(start));
        assertEquals(0, s.occurred(start + GAP / 2 + 10), "wrapped, but only half a gap later");
        assertEquals(2, s.occurred(start + GAP));
    }
}
