package dev.gpureactor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The wait driver on virtual time: no sleeps, no timing, every step counted. */
class WaitTest {
    static final long T0 = 7_000_000_000L;
    static final WaitPlan POLL = WaitPlan.parse("poll");
    static final WaitPlan FLAG = WaitPlan.parse("flag:park_us=100,backstop_us=1000");
    static final WaitPlan BLOCK = WaitPlan.parse("block");
    static final OptionalLong NO_SLEEP = OptionalLong.empty();

    final ManualClock clock = new ManualClock(T0);
    final List<Long> sleeps = new ArrayList<>();

    /** {@link ManualClock#sleeper} that also records every deadline it was asked to sleep to. */
    Sleeper sleeper(long overshoot) {
        Sleeper s = clock.sleeper(overshoot);
        return at -> {
            sleeps.add(at);
            s.sleepUntil(at);
        };
    }

    Outcome run(WaitPlan plan, FakePort port, OptionalLong sleep, long overshoot) throws InterruptedException {
        return Wait.run(plan, port, clock, sleeper(overshoot), sleep);
    }

    static ReactorException backendError() {
        return new ReactorException(ErrorCode.Backend, "sim", "query", 719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure");
    }

    // ---- outcomes ----

    @Test
    void already_done_is_immediate_for_every_plan_but_block() throws Exception {
        for (WaitPlan plan : List.of(POLL, FLAG, WaitPlan.parse("poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=8"))) {
            FakePort port = new FakePort(clock, T0);
            sleeps.clear();
            assertEquals(new Outcome.Immediate(0), run(plan, port, OptionalLong.of(900_000), 0), plan.label());
            assertEquals(1, port.queries);
            assertEquals(0, port.armed, "nothing armed once done");
            assertEquals(0, port.parks);
            assertEquals(0, port.polls);
            assertEquals(List.of(), sleeps, "no sleep once done");
        }
        FakePort past = new FakePort(clock, T0 - 5);
        assertInstanceOf(Outcome.Immediate.class, run(FLAG, past, NO_SLEEP, 0));
    }

    @Test
    void an_oversleep_past_done_is_late_and_censored() throws Exception {
        FakePort port = new FakePort(clock, T0 + 1_000_000);
        Outcome o = run(POLL, port, OptionalLong.of(900_000), 200_000);
        assertEquals(new Outcome.Late(1_100_000), o);
        assertEquals(List.of(T0 + 900_000), sleeps);
        assertEquals(2, port.queries, "one before the sleep, one after");
        assertEquals(0, port.polls);
        assertEquals(T0 + 1_100_000, clock.nanos());
    }

    @Test
    void a_flag_wait_arms_before_the_sleep_and_can_be_late_too() throws Exception {
        FakePort port = new FakePort(clock, T0 + 1_000_000);
        Outcome o = run(FLAG, port, OptionalLong.of(1_000_000), 1);
        assertEquals(new Outcome.Late(1_000_001), o);
        assertEquals(List.of("query", "arm", "query"), port.calls);
    }

    @Test
    void poll_after_an_early_wake_is_exact() throws Exception {
        FakePort port = new FakePort(clock, T0 + 1_000_000);
        Outcome o = run(POLL, port, OptionalLong.of(700_000), 50_000);
        assertEquals(new Outcome.Exact(1_000_000), o);
        assertEquals(List.of(T0 + 700_000), sleeps);
        assertEquals(1, port.polls);
        assertEquals(0, port.armed, "poll arms nothing");
        assertEquals(0, port.parks, "poll parks on nothing");
        assertTrue(port.lastAnswer);
    }

    @Test
    void poll_without_a_sleep_is_exact() throws Exception {
        FakePort port = new FakePort(clock, T0 + 1_000_000);
        assertEquals(new Outcome.Exact(1_000_000), run(POLL, port, NO_SLEEP, 0));
        assertEquals(List.of(), sleeps);
        assertEquals(List.of("query", "poll", "query", "query"), port.calls);
    }

    @Test
    void flag_sees_the_word_and_is_exact() throws Exception {
        FakePort port = new FakePort(clock, T0 + 1_234_567);
        Outcome o = run(FLAG, port, NO_SLEEP, 0);
        assertEquals(new Outcome.Exact(1_234_567), o);
        assertEquals(1, port.armed);
        assertEquals(T0 + 1_234_567, clock.nanos());
        assertTrue(port.lastAnswer, "the query confirmed the word");
        for (long[] p : port.parkCalls) assertTrue(p[1] <= 100_000, "park bound " + p[1] + " > park_ns");
        // The backstop query at 1 ms fell in the middle.
        assertTrue(port.queryTimes.contains(T0 + 1_000_000), port.queryTimes.toString());
    }

    @Test
    void flag_after_a_short_sleep_is_exact() throws Exception {
        FakePort port = new FakePort(clock, T0 + 1_000_000);
        Outcome o = run(FLAG, port, OptionalLong.of(750_000), 20_000);
        assertEquals(new Outcome.Exact(1_000_000), o);
        assertEquals(List.of(T0 + 750_000), sleeps);
        assertEquals("query", port.calls.get(0));
        assertEquals("arm", port.calls.get(1));
        assertEquals("query", port.calls.get(2));
        assertEquals(T0 + 770_000, port.parkCalls.get(0)[0], "parks start after the sleep");
    }

    // ---- block ----

    @Test
    void block_calls_block_only_and_returns_blocked() throws Exception {
        FakePort port = new FakePort(clock, T0 + 3_000_000);
        Outcome o = run(BLOCK, port, OptionalLong.of(2_000_000), 100);
        assertEquals(new Outcome.Blocked(3_000_000), o);
        assertEquals(List.of("block"), port.calls);
        assertEquals(1, port.blocks);
        assertEquals(List.of(), sleeps, "block sleeps in front of nothing");

        FakePort done = new FakePort(clock, 0);
        assertEquals(new Outcome.Blocked(0), run(BLOCK, done, NO_SLEEP, 0));
        assertEquals(List.of("block"), done.calls, "block does not query even when the work is done");
    }

    // ---- the backstop ----

    @Test
    void a_word_that_never_lands_is_caught_by_the_backstop_query() throws Exception {
        FakePort port = new FakePort(clock, T0 + 5_000_000);
        port.wordWorks = false;
        Outcome o = run(FLAG, port, NO_SLEEP, 0);
        assertEquals(new Outcome.Exact(5_000_000), o);
        assertEquals(List.of(T0, T0 + 1_000_000, T0 + 2_000_000, T0 + 3_000_000, T0 + 4_000_000, T0 + 5_000_000), port.queryTimes);
        assertEquals(6, port.queries);
        assertEquals(50, port.parks, "ten parks of 100 us per backstop");
        for (long[] p : port.parkCalls) assertEquals(100_000, p[1]);
    }

    @Test
    void the_backstop_is_kept_between_backstops_too() throws Exception {
        FakePort port = new FakePort(clock, T0 + 4_500_000);
        port.wordWorks = false;
        Outcome o = run(FLAG, port, NO_SLEEP, 0);
        assertEquals(new Outcome.Exact(5_000_000), o, "seen by the first query after done");
        assertEquals(6, port.queries);
        assertTrue(port.largestQueryGapFrom(T0) <= 1_000_000);
    }

    @Test
    void no_park_crosses_a_backstop_even_when_the_park_bound_is_longer() throws Exception {
        WaitPlan plan = WaitPlan.parse("flag:park_us=700,backstop_us=1000");
        FakePort port = new FakePort(clock, T0 + 3_300_000);
        port.wordWorks = false;
        assertEquals(new Outcome.Exact(4_000_000), run(plan, port, NO_SLEEP, 0));
        assertEquals(List.of(T0, T0 + 1_000_000, T0 + 2_000_000, T0 + 3_000_000, T0 + 4_000_000), port.queryTimes);
        List<Long> bounds = port.parkCalls.stream().map(p -> p[1]).toList();
        assertEquals(List.of(700_000L, 300_000L, 700_000L, 300_000L, 700_000L, 300_000L, 700_000L, 300_000L), bounds);

        ManualClock c2 = new ManualClock(T0);
        WaitPlan tight = WaitPlan.parse("flag:park_us=5000,backstop_us=200");
        FakePort p2 = new FakePort(c2, T0 + 1_000_000);
        p2.wordWorks = false;
        assertEquals(new Outcome.Exact(1_000_000), Wait.run(tight, p2, c2, c2.sleeper(0), NO_SLEEP));
        assertEquals(6, p2.queries, "a query every 200 us");
        for (long[] p : p2.parkCalls) assertEquals(200_000, p[1]);
    }

    @Test
    void the_backstop_counts_from_the_query_after_the_sleep() throws Exception {
        FakePort port = new FakePort(clock, T0 + 10_000_000);
        port.wordWorks = false;
        run(FLAG, port, OptionalLong.of(2_500_000), 300_000);
        assertEquals(T0 + 2_800_000, port.queryTimes.get(1));
        assertEquals(T0 + 3_800_000, port.queryTimes.get(2));
        assertTrue(port.largestQueryGapFrom(T0 + 2_800_000) <= 1_000_000);
    }

    // ---- the query is the authority ----

    @Test
    void a_word_that_lands_early_still_waits_for_the_query() throws Exception {
        FakePort port = new FakePort(clock, T0 + 3_000_000);
        port.wordAt = T0 + 1_000_000;
        Outcome o = run(FLAG, port, NO_SLEEP, 0);
        assertInstanceOf(Outcome.Exact.class, o);
        assertTrue(clock.nanos() >= T0 + 3_000_000, "returned before the query said done");
        assertTrue(port.lastAnswer);
        assertTrue(o.elapsedNanos() >= 1_000_000 && o.elapsedNanos() <= 3_000_000, o.toString());
    }

    @Test
    void a_failure_after_the_word_landed_is_still_an_error() {
        FakePort port = new FakePort(clock, T0 + 1_000_000);
        port.fail = backendError();
        port.failAt = T0 + 1_000_000;
        assertSame(port.fail, assertThrows(ReactorException.class, () -> run(FLAG, port, NO_SLEEP, 0)));
    }

    // ---- errors pass through unchanged ----

    @Test
    void an_error_from_the_first_query_ends_the_wait() {
        for (WaitPlan plan : List.of(POLL, FLAG)) {
            FakePort port = new FakePort(clock, T0 + 1_000_000);
            port.fail = backendError();
            port.failAt = T0;
            ReactorException e = assertThrows(ReactorException.class, () -> run(plan, port, OptionalLong.of(500_000), 0));
            assertSame(port.fail, e);
            assertEquals(ErrorCode.Backend, e.code());
            assertEquals(1, port.queries);
            assertEquals(0, port.armed);
        }
    }

    @Test
    void an_error_from_the_query_after_the_sleep_ends_the_wait() {
        FakePort port = new FakePort(clock, T0 + 1_000_000);
        port.fail = backendError();
        port.failAt = T0 + 800_000;
        assertSame(port.fail, assertThrows(ReactorException.class, () -> run(FLAG, port, OptionalLong.of(900_000), 0)));
        assertEquals(2, port.queries);
        assertEquals(0, port.parks);
    }

    @Test
    void an_error_while_polling_ends_the_wait() {
        FakePort port = new FakePort(clock, T0 + 1_000_000);
        port.fail = backendError();
        port.failAt = T0 + 500_000;
        assertSame(port.fail, assertThrows(ReactorException.class, () -> run(POLL, port, NO_SLEEP, 0)));
        assertEquals(T0 + 500_000, clock.nanos());
    }

    @Test
    void an_error_on_a_flag_wait_is_caught_within_one_backstop() {
        FakePort port = new FakePort(clock, T0 + 10_000_000);
        port.wordWorks = false;
        port.fail = backendError();
        port.failAt = T0 + 2_500_000;
        assertSame(port.fail, assertThrows(ReactorException.class, () -> run(FLAG, port, NO_SLEEP, 0)));
        assertEquals(T0 + 3_000_000, clock.nanos());
    }

    @Test
    void an_error_from_block_or_park_passes_through() {
        FakePort blocked = new FakePort(clock, T0 + 1_000_000);
        blocked.fail = backendError();
        blocked.failAt = T0 + 400_000;
        assertSame(blocked.fail, assertThrows(ReactorException.class, () -> run(BLOCK, blocked, NO_SLEEP, 0)));

        FakePort parked = new FakePort(clock, clock.nanos() + 1_000_000);
        parked.parkFails = new ReactorException(ErrorCode.NativeUnavailable, "libgarpark.so", "gone");
        assertSame(parked.parkFails, assertThrows(ReactorException.class, () -> run(FLAG, parked, NO_SLEEP, 0)));

        FakePort odd = new FakePort(clock, clock.nanos() + 1_000_000);
        odd.fail = new IllegalStateException("not even coded");
        odd.failAt = clock.nanos();
        assertSame(odd.fail, assertThrows(IllegalStateException.class, () -> run(POLL, odd, NO_SLEEP, 0)));
    }

    // ---- sleeps ----

    @Test
    void it_never_sleeps_longer_than_asked() throws Exception {
        for (long ask : new long[] {1, 20_000, 999_999, 50_000_000}) {
            for (long overshoot : new long[] {0, 1, 300_000}) {
                for (WaitPlan plan : List.of(POLL, FLAG)) {
                    sleeps.clear();
                    long start = clock.nanos();
                    FakePort port = new FakePort(clock, start + 60_000_000);
                    run(plan, port, OptionalLong.of(ask), overshoot);
                    assertEquals(List.of(start + ask), sleeps, plan.label() + " asked " + ask);
                    assertEquals(start + ask + overshoot, port.queryTimes.get(1), "the query right after the wake");
                }
            }
        }
    }

    @Test
    void no_ask_is_no_sleep() throws Exception {
        for (OptionalLong ask : List.of(OptionalLong.empty(), OptionalLong.of(0), OptionalLong.of(-5))) {
            sleeps.clear();
            FakePort port = new FakePort(clock, clock.nanos() + 1_000_000);
            run(POLL, port, ask, 0);
            assertEquals(List.of(), sleeps, "ask " + ask);
        }
    }

    @Test
    void a_sleep_to_the_end_of_time_saturates() throws Exception {
        ManualClock late = new ManualClock(Long.MAX_VALUE - 10);
        FakePort port = new FakePort(late, Long.MAX_VALUE - 5);
        List<Long> asked = new ArrayList<>();
        Sleeper s = late.sleeper(0);
        Outcome o = Wait.run(POLL, port, late, at -> { asked.add(at); s.sleepUntil(at); }, OptionalLong.of(Long.MAX_VALUE));
        assertEquals(List.of(Long.MAX_VALUE), asked);
        assertEquals(new Outcome.Late(10), o);
    }

    // ---- interrupts ----

    @Test
    void an_interrupt_ends_a_flag_wait() {
        FakePort port = new FakePort(clock, T0 + 10_000_000);
        port.wordWorks = false;
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, () -> run(FLAG, port, NO_SLEEP, 0));
            assertFalse(Thread.currentThread().isInterrupted(), "the interrupt was taken");
            assertEquals(1, port.parks);
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void the_default_poll_queries_until_done_and_honours_interrupts() throws Exception {
        int[] left = {3};
        CompletionPort port = new CompletionPort() {
            @Override public boolean query() { return --left[0] <= 0; }
            @Override public void block() {}
            @Override public void arm() {}
            @Override public boolean park(long boundNanos) { return false; }
        };
        port.poll();
        assertEquals(0, left[0]);
        CompletionPort never = new CompletionPort() {
            @Override public boolean query() { return false; }
            @Override public void block() {}
            @Override public void arm() {}
            @Override public boolean park(long boundNanos) { return false; }
        };
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, never::poll);
        } finally {
            Thread.interrupted();
        }
    }
}
