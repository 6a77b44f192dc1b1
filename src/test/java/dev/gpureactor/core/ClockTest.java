package dev.gpureactor.core;

import static dev.gpureactor.core.Coded.assertCoded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Time arithmetic and the virtual clock the other tests stand on. */
class ClockTest {
    @Test
    void since_saturates_at_zero() {
        assertEquals(5, Clock.since(10, 5));
        assertEquals(0, Clock.since(5, 10));
        assertEquals(0, Clock.since(7, 7));
        assertEquals(10, Clock.since(Long.MIN_VALUE + 5, Long.MAX_VALUE - 4), "a difference across the wrap");
    }

    @Test
    void after_saturates_at_the_end_of_time() {
        assertEquals(15, Clock.after(10, 5));
        assertEquals(Long.MAX_VALUE, Clock.after(Long.MAX_VALUE - 1, 5));
        assertEquals(Long.MAX_VALUE, Clock.after(1, Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, Clock.after(Long.MAX_VALUE, Long.MAX_VALUE));
        assertEquals(-5, Clock.after(-10, 5));
    }

    @Test
    void the_system_clock_never_goes_back() {
        Clock c = Clock.system();
        long a = c.nanos();
        long b = c.nanos();
        assertTrue(b - a >= 0);
    }

    @Test
    void a_manual_clock_moves_only_when_told_and_fires_timers_in_deadline_order() {
        ManualClock clock = new ManualClock(100);
        assertEquals(100, clock.nanos());
        assertEquals(0, new ManualClock().nanos());
        List<String> fired = new ArrayList<>();
        clock.at(300, () -> fired.add("300a"));
        clock.at(200, () -> fired.add("200"));
        clock.at(300, () -> fired.add("300b"));
        clock.at(100, () -> fired.add("now"));
        assertEquals(List.of("now"), fired, "a due timer fires at once");
        assertEquals(200, clock.nextTimer());
        clock.advance(99);
        assertEquals(List.of("now"), fired);
        clock.advance(1);
        assertEquals(List.of("now", "200"), fired);
        clock.set(1_000);
        assertEquals(List.of("now", "200", "300a", "300b"), fired, "same deadline: in the order set");
        assertEquals(Long.MAX_VALUE, clock.nextTimer());
        clock.set(1_000);
        assertEquals(1_000, clock.nanos());
    }

    @Test
    void a_manual_clock_never_goes_back() {
        ManualClock clock = new ManualClock(50);
        assertCoded(ErrorCode.InvalidArgument, () -> clock.set(49));
        assertCoded(ErrorCode.InvalidArgument, () -> clock.advance(-1));
        assertEquals(50, clock.nanos());
        clock.advance(Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, clock.nanos(), "advance saturates");
    }

    @Test
    void the_sleeper_moves_the_clock_to_the_deadline_plus_the_overshoot() throws InterruptedException {
        ManualClock clock = new ManualClock(1_000);
        clock.sleeper(0).sleepUntil(5_000);
        assertEquals(5_000, clock.nanos());
        clock.sleeper(250).sleepUntil(6_000);
        assertEquals(6_250, clock.nanos());
        clock.sleeper(10).sleepUntil(100);
        assertEquals(6_250, clock.nanos(), "a deadline in the past does not move the clock back");
        List<Long> fired = new ArrayList<>();
        clock.at(7_000, () -> fired.add(clock.nanos()));
        clock.sleeper(0).sleepUntil(8_000);
        assertEquals(List.of(8_000L), fired, "timers fire as the sleep moves the clock");
    }
}
