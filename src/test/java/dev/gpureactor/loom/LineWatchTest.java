package dev.gpureactor.loom;

import dev.gpureactor.park.SlowQueries;
import dev.gpureactor.parker.Reports;
import dev.gpureactor.parker.ReactorCounters;
import dev.gpureactor.parker.Turn;
import dev.gpureactor.parker.LineWatch;
import dev.gpureactor.parker.LineWait;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The parker's turn, single-threaded and on a manual clock: no thread, no sleep. The test plays
 * the runner (snapshot, intake, turn) and the device (stores into the line).
 */
class LineWatchTest {
    /** Park bound 100 µs, backstop 1 ms, margin 100 µs. */
    static final WaitPlan.FlagWait PLAN = (WaitPlan.FlagWait) WaitPlan.parse(
            "flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8");

    final CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "t", () -> { });
    final ManualClock clock = new ManualClock();
    final PointTable<Object> points = new PointTable<>();
    final List<Warning> warned = new ArrayList<>();
    final ReactorCounters counters = new ReactorCounters();
    final LineWatch watch = new LineWatch(line, PLAN, points, clock, warned::add, counters, 0);
    long ids;

    /** A port that counts its queries and answers {@code done} (or throws {@code failure}). */
    static final class FakePort implements CompletionPort {
        int queries;
        boolean done;
        RuntimeException failure;

        @Override public boolean query() {
            queries++;
            if (failure != null) throw failure;
            return done;
        }
        @Override public void block() { throw new UnsupportedOperationException(); }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    }

    static CompletionPort neverDone() { return new FakePort(); }

    GpuFuture<Void> waitOn(int slot, long target, CompletionPort port, long wakeAt, Object point) {
        counters.registered();
        GpuFuture<Void> f = new GpuFuture<>(++ids, new MemoryDescriptor(line, Slot.of(slot), target), port, null,
                Runnable::run, clock.nanos(), wakeAt, 0, point);
        watch.add(f.lineWait);
        return f;
    }

    Turn turn(boolean afterSleep) {
        watch.snapshot();
        return watch.next(afterSleep, false);
    }

    @Test
    void no_waits_is_idle_and_the_last_settled_wait_turns_again() {
        assertEquals(Turn.IDLE, turn(false));
        GpuFuture<Void> f = waitOn(0, 1, new FakePort(), 0, null);
        line.store(Slot.of(0), 1);
        assertEquals(Turn.AGAIN, turn(false));
        assertEquals(GpuFuture.COMPLETED, f.rawState());
        assertEquals(0, counters.registrations());
    }

    @Test
    void a_scan_completes_the_reached_waits_lowest_target_first_and_stops_at_the_first_unreached() {
        FakePort port = new FakePort();
        GpuFuture<Void> three = waitOn(2, 3, port, 0, null);
        GpuFuture<Void> one = waitOn(2, 1, port, 0, null);
        GpuFuture<Void> two = waitOn(2, 2, port, 0, null);
        GpuFuture<Void> other = waitOn(5, 1, port, 0, null);
        line.store(Slot.of(2), 2);
        assertInstanceOf(Turn.Park.class, turn(false));
        assertEquals(List.of(GpuFuture.COMPLETED, GpuFuture.COMPLETED, GpuFuture.PENDING, GpuFuture.PENDING),
                List.of(one.rawState(), two.rawState(), three.rawState(), other.rawState()));
        assertEquals(List.of(0, 0, 1, 0, 0, 1, 0, 0), watch.slotSizes());
        assertEquals(2, watch.waiting());
    }

    @Test
    void targets_are_ordered_across_the_wrap_of_the_word() {
        GpuFuture<Void> beforeWrap = waitOn(0, Long.MAX_VALUE, new FakePort(), 0, null);
        GpuFuture<Void> afterWrap = waitOn(0, Long.MIN_VALUE + 1, new FakePort(), 0, null);
        line.store(Slot.of(0), Long.MAX_VALUE);
        turn(false);
        assertEquals(GpuFuture.COMPLETED, beforeWrap.rawState());
        assertEquals(GpuFuture.PENDING, afterWrap.rawState(), "a word behind the wrap has not reached a target past it");
    }

    /** A turn as the parker runs it: the snapshot, then the intake of {@code targets} on {@code slot}, then the scan. */
    List<GpuFuture<Void>> turnTakingIn(int slot, long... targets) {
        watch.snapshot();
        List<GpuFuture<Void>> made = new ArrayList<>();
        for (long t : targets) made.add(waitOn(slot, t, neverDone(), 0, null));
        watch.next(false, false);
        return made;
    }

    @Test
    void a_wait_registered_far_past_a_word_that_jumped_does_not_complete_with_the_wait_the_jump_reached() {
        GpuFuture<Void> behind = turnTakingIn(0, 10).getFirst();
        line.store(Slot.of(0), 1L << 62); // reaches 10
        GpuFuture<Void> ahead = turnTakingIn(0, (1L << 63) + 100).getFirst(); // 2^62 + 100 past the word, 2^63 + 90 past 10
        assertEquals(GpuFuture.COMPLETED, behind.rawState());
        assertEquals(GpuFuture.PENDING, ahead.rawState(), "completed before its word reached it");
        line.store(Slot.of(0), (1L << 63) + 100);
        turn(false);
        assertEquals(GpuFuture.COMPLETED, ahead.rawState());
        assertEquals(0, watch.waiting());
    }

    @Test
    void a_wait_the_jump_reached_is_not_stranded_behind_one_registered_far_past_it() {
        List<GpuFuture<Void>> held = turnTakingIn(0, 10, (1L << 62) + 50);
        line.store(Slot.of(0), 1L << 62); // reaches 10, not 2^62 + 50
        GpuFuture<Void> ahead = turnTakingIn(0, (1L << 63) + 100).getFirst();
        assertEquals(List.of(GpuFuture.COMPLETED, GpuFuture.PENDING, GpuFuture.PENDING),
                List.of(held.get(0).rawState(), held.get(1).rawState(), ahead.rawState()), "10 stranded, or a later one early");
        line.store(Slot.of(0), (1L << 62) + 50);
        turn(false);
        assertEquals(List.of(GpuFuture.COMPLETED, GpuFuture.PENDING), List.of(held.get(1).rawState(), ahead.rawState()));
        line.store(Slot.of(0), (1L << 63) + 100);
        turn(false);
        assertEquals(GpuFuture.COMPLETED, ahead.rawState());
        assertEquals(0, watch.waiting());
        assertEquals(0, counters.registrations());
    }

    @Test
    void a_withdrawn_wait_leaves_its_slot() {
        GpuFuture<Void> f = waitOn(1, 1, new FakePort(), 0, null);
        watch.remove(f.lineWait);
        assertEquals(Turn.IDLE, turn(false));
        assertEquals(0, counters.registrations());
    }

    /**
     * A wait given back to its parker registers again; where its withdrawal overtook its first
     * registration, the parker took nothing out and holds it already: the second registration is
     * only counted out, and the wait is held, and counted, once.
     */
    @Test
    void a_wait_given_back_that_is_held_already_is_held_and_counted_once() {
        GpuFuture<Void> f = waitOn(1, 1, new FakePort(), 0, null); // its first registration, held: its withdrawal came first and found nothing
        f.lineWait.givenBack();
        counters.registered(); // the wait given back registers again
        watch.add(f.lineWait);
        assertEquals(List.of(0, 1, 0, 0, 0, 0, 0, 0), watch.slotSizes());
        assertEquals(1, watch.waiting());
        assertEquals(1, counters.registrations());
        line.store(Slot.of(1), 1);
        assertEquals(Turn.AGAIN, turn(false));
        assertEquals(GpuFuture.COMPLETED, f.rawState());
        assertEquals(0, counters.registrations(), "counted out once, by the scan that completed it");
    }

    /**
     * The line closes between the backstop's query (done) and its read of the word: the wait stays
     * held, so the close's drop of the watch fails it. Taken out before the read, it was neither
     * signalled nor failed, and its joiner hung (about 1 run in 1,000 of a close under load).
     */
    @Test
    void a_line_closed_between_the_backstops_done_and_its_word_read_leaves_the_wait_to_the_closes_drop() {
        CompletionPort closesTheLine = new CompletionPort() {
            @Override public boolean query() {
                line.close(); // the close lands as the port says done
                return true;
            }
            @Override public void block() { throw new UnsupportedOperationException(); }
            @Override public void arm() { }
            @Override public boolean park(long boundNanos) { return false; }
        };
        GpuFuture<Void> f = waitOn(3, 1, closesTheLine, 0, null);
        clock.advance(PLAN.backstopNanos()); // the slot's backstop is due
        watch.snapshot();
        watch.next(false, false);
        assertEquals(GpuFuture.PENDING, f.rawState());
        assertEquals(1, watch.waiting(), "still held for the close's drop");
        watch.failAll(new ReactorException(ErrorCode.LineClosed, line.name(), "wait")); // what the drop does
        assertEquals(GpuFuture.FAILED, f.rawState());
        assertEquals(0, counters.registrations());
    }

    @Test
    void the_backstop_queries_each_busy_slot_once_per_backstop_and_the_turn_never_sleeps_past_it() {
        FakePort port = new FakePort();
        waitOn(0, 1, port, 10_000_000, null); // predicted in 10 ms: it would sleep past the 1 ms backstop
        assertEquals(new Turn.Sleep(1_000_000), turn(false), "sleeps to the backstop, not to the prediction");
        assertEquals(0, port.queries);
        clock.advance(999_999);
        turn(false);
        assertEquals(0, port.queries, "not due yet");
        clock.advance(1);
        assertEquals(new Turn.Sleep(2_000_000), turn(true));
        assertEquals(1, port.queries);
        turn(false);
        assertEquals(1, port.queries, "once per backstop");
    }

    /** A port whose every query takes {@code queryNanos} of the manual clock: one that blocks, or a quick one. */
    final class TimedPort implements CompletionPort {
        long queryNanos;
        int queries;

        TimedPort(long queryNanos) { this.queryNanos = queryNanos; }

        @Override public boolean query() {
            queries++;
            clock.advance(queryNanos);
            return false;
        }
        @Override public void block() { throw new UnsupportedOperationException(); }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    }

    /** Runs {@code n} backstop rounds: each advances the clock past the backstop and takes one turn. */
    void backstops(int n) {
        for (int i = 0; i < n; i++) {
            clock.advance(PLAN.backstopNanos());
            turn(true);
        }
    }

    List<Warning> slowPorts() {
        return warned.stream().filter(w -> w.code() == ErrorCode.SlowPort).toList();
    }

    @Test
    void a_port_whose_query_blocks_three_times_in_a_row_is_warned_SlowPort_once_naming_it_and_the_line() {
        TimedPort blocking = new TimedPort(5_000_000); // 5 ms a query: a synchronize where a status query belongs
        waitOn(2, 1, blocking, 0, null);
        backstops(2);
        assertEquals(2, blocking.queries);
        assertEquals(List.of(), slowPorts(), "two slow queries may be a preempted parker");
        backstops(1);
        assertEquals(1, slowPorts().size(), "the third in a row is a port that blocks");
        Warning w = slowPorts().getFirst();
        assertEquals(TimedPort.class.getName(), w.args().get(0));
        assertEquals("5 ms", w.args().get(1));
        assertEquals(line.name(), w.args().get(2));
        assertEquals("parker", w.args().get(4));
        backstops(5);
        assertEquals(8, blocking.queries);
        assertEquals(1, slowPorts().size(), "once: a log line per backstop would bury the log");
    }

    @Test
    void quick_queries_and_slow_ones_not_in_a_row_warn_nothing() {
        TimedPort port = new TimedPort(SlowQueries.SLOW_NANOS - 1);
        waitOn(0, 1, port, 0, null);
        backstops(5);
        assertEquals(List.of(), slowPorts(), "under a millisecond is an answer at once");
        for (int i = 0; i < 4; i++) { // slow, slow, quick: never three in a row
            port.queryNanos = 2_000_000;
            backstops(2);
            port.queryNanos = 1_000;
            backstops(1);
        }
        assertEquals(5 + 4 * 3, port.queries);
        assertEquals(List.of(), slowPorts());
    }

    @Test
    void slow_queries_count_per_slot_so_a_quick_port_beside_a_blocking_one_does_not_hide_it() {
        TimedPort quick = new TimedPort(1_000);
        TimedPort blocking = new TimedPort(3_000_000);
        waitOn(0, 1, quick, 0, null);
        waitOn(5, 1, blocking, 0, null);
        backstops(3);
        assertEquals(1, slowPorts().size());
        assertEquals(TimedPort.class.getName(), slowPorts().getFirst().args().get(0));
    }

    @Test
    void a_failing_port_fails_its_slot_with_its_coded_error_and_an_unchecked_one_with_Backend_and_the_cause() {
        FakePort coded = new FakePort();
        ReactorException streamFailed = new ReactorException(ErrorCode.Backend, "sim", "stream", 719, "LAUNCH_FAILED", "x");
        coded.failure = streamFailed;
        FakePort broken = new FakePort();
        IllegalStateException bug = new IllegalStateException("port bug");
        broken.failure = bug;
        GpuFuture<Void> a = waitOn(0, 1, coded, 0, null), b = waitOn(0, 2, coded, 0, null);
        GpuFuture<Void> c = waitOn(1, 1, broken, 0, null);
        GpuFuture<Void> bystander = waitOn(2, 1, new FakePort(), 0, null);
        clock.advance(1_000_000);
        turn(false);
        assertSame(streamFailed, a.exceptionNow());
        assertSame(streamFailed, b.exceptionNow());
        ReactorException wrapped = assertInstanceOf(ReactorException.class, c.exceptionNow());
        assertEquals(ErrorCode.Backend, wrapped.code());
        assertSame(bug, wrapped.getCause());
        assertEquals(GpuFuture.PENDING, bystander.rawState(), "only the failing port's slot fails");
        assertEquals(1, counters.registrations());
    }

    @Test
    void a_port_done_for_a_word_never_written_completes_with_WordNeverWritten() {
        FakePort port = new FakePort();
        port.done = true;
        GpuFuture<Void> f = waitOn(3, 1, port, 0, null);
        clock.advance(1_000_000);
        assertEquals(Turn.AGAIN, turn(false));
        assertEquals(GpuFuture.COMPLETED, f.rawState());
        assertEquals(1, warned.size());
        assertEquals(ErrorCode.WordNeverWritten, warned.get(0).code());
    }

    @Test
    void a_port_done_after_the_store_warns_nothing() {
        FakePort port = new FakePort();
        port.done = true;
        waitOn(3, 1, port, 0, null);
        clock.advance(1_000_000);
        line.store(Slot.of(3), 1);
        watch.next(false, false); // no new snapshot: the scan misses it, the backstop's query finds it
        assertEquals(List.of(), warned);
    }

    @Test
    void a_backstop_that_finds_its_head_done_by_a_store_since_the_snapshot_settles_every_wait_the_word_reached_with_one_query() {
        // Each port a real GPU's query (cuStreamQuery): asked once for the slot, not once per wait behind the head.
        int n = 50, stored = 40;
        List<FakePort> ports = new ArrayList<>();
        List<Long> settled = new ArrayList<>();
        for (int t = 1; t <= n; t++) {
            FakePort port = new FakePort();
            port.done = t <= stored;
            ports.add(port);
            long target = t;
            waitOn(3, t, port, 0, null).toCompletableFuture().thenRun(() -> settled.add(target));
        }
        clock.advance(PLAN.backstopNanos());
        watch.snapshot();
        line.store(Slot.of(3), stored); // after the snapshot: the scan misses it, the backstop's query finds it
        watch.next(false, false);
        List<Long> expected = new ArrayList<>();
        for (long t = 1; t <= stored; t++) expected.add(t);
        assertEquals(expected, settled, "every wait the word reached, lowest target first");
        assertEquals(1, ports.get(0).queries, "the head, asked once");
        assertEquals(0, ports.subList(1, stored).stream().mapToInt(p -> p.queries).sum(), "a reached wait behind the head was asked");
        assertEquals(1, ports.get(stored).queries, "the new head is asked in the same backstop");
        assertEquals(n - stored, watch.waiting());
        assertEquals(n - stored, counters.registrations());
        assertEquals(List.of(), warned);
    }

    @Test
    void a_completion_after_a_park_is_exact_and_after_a_deadline_sleep_is_late_censored() {
        waitOn(0, 1, new FakePort(), 0, "p");
        clock.advance(3_000_000);
        line.store(Slot.of(0), 1);
        turn(false);
        assertEquals(3_000_000, points.estimate("p").predictedNanos().getAsLong(), "exact: as measured");

        waitOn(0, 2, new FakePort(), 0, "p");
        clock.advance(2_000_000);
        watch.afterTimedSleep(clock.nanos(), clock.nanos()); // a sleep that ended on time
        line.store(Slot.of(0), 2);
        turn(true);
        assertEquals(1_000_000, points.estimate("p").predictedNanos().getAsLong(), "late: min(woke, predicted) / 2");
    }

    @Test
    void a_store_that_reaches_many_waits_of_a_few_points_teaches_each_point_every_residual_in_order() {
        // A fan-out: waits started 1 ms apart on two slots (two points) and a third point mixed into slot 1.
        List<Long> starts = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            waitOn(i < 12 ? 0 : 1, 1, new FakePort(), 0, i < 12 ? "a" : i % 2 == 0 ? "b" : "c");
            starts.add(clock.nanos());
            clock.advance(1_000_000);
        }
        line.store(Slot.of(0), 1);
        line.store(Slot.of(1), 1);
        turn(false);
        PointTable<Object> expected = new PointTable<>();
        for (int i = 0; i < 20; i++) {
            expected.observe(i < 12 ? "a" : i % 2 == 0 ? "b" : "c", PLAN.predict().orElseThrow(),
                    new dev.gpureactor.core.Outcome.Exact(clock.nanos() - starts.get(i)));
        }
        for (String p : List.of("a", "b", "c")) {
            assertEquals(expected.estimate(p).toString(), points.estimate(p).toString(), "point " + p);
        }
        assertEquals(8, points.estimate("a").sampleCount(), "the window keeps the last 8 of a's 12");
    }

    @Test
    void the_oversleep_allowance_beyond_the_margin_wakes_the_sleep_earlier_by_the_excess() {
        watch.afterTimedSleep(0, 400_000); // the OS woke a sleep 400 µs late: 300 µs past the 100 µs margin
        assertEquals(400_000, watch.oversleepAllowanceNanos());
        waitOn(0, 1, new FakePort(), 800_000, null);
        assertEquals(new Turn.Sleep(500_000), turn(false));
    }

    @Test
    void past_a_halved_prediction_the_decision_sleeps_again_to_the_exact_floor_then_spins_past_it() {
        // now, wakeAt, resumeAt, spread, nextBackstop, allowance, margin, spinWindow, parkNanos, backlogged, sleptNanos
        assertEquals(new Turn.Sleep(5_000), LineWatch.decide(0, 5_000, 10_000, 200, 20_000, 0, 100, 80, 100, false, 10_000),
                "before the halved prediction: sleep to it");
        assertEquals(new Turn.Sleep(10_000), LineWatch.decide(5_000, 5_000, 10_000, 200, 20_000, 0, 100, 80, 100, false, 10_000),
                "it passed with nothing: sleep again to the floor, no spin and no slices from the halved wake");
        assertEquals(new Turn.Sleep(6_000), LineWatch.decide(5_000, 5_000, 10_000, 200, 6_000, 0, 100, 80, 100, false, 10_000),
                "the backstop still cuts the second sleep");
        assertEquals(new Turn.Sleep(9_700), LineWatch.decide(5_000, 5_000, 10_000, 200, 20_000, 400, 100, 80, 100, false, 10_000),
                "the OS's excess lateness wakes it early for the floor too");
        assertEquals(new Turn.Park(100, 100), LineWatch.decide(10_000, 5_000, 10_000, 200, 20_000, 0, 100, 80, 100, false, 10_000),
                "at the floor: a sharp point spins past it (bounded)");
    }

    @Test
    void the_decision_sleeps_to_the_earlier_of_wake_and_backstop_then_parks_bounded_and_spins_past_the_wake() {
        // now, wakeAt, resumeAt, spread, nextBackstop, allowance, margin, spinWindow, parkNanos, backlogged, sleptNanos
        assertEquals(new Turn.Sleep(500), LineWatch.decide(0, 500, 500, 0, 1_000, 0, 100, 0, 100, false, 0));
        assertEquals(new Turn.Sleep(300), LineWatch.decide(0, 500, 500, 0, 300, 0, 100, 0, 100, false, 0));
        assertEquals(new Turn.Park(100, 0), LineWatch.decide(500, 500, 500, 0, 10_000, 0, 100, 0, 100, false, 0), "at the wake: no window, no spin");
        assertEquals(new Turn.Park(100, 80), LineWatch.decide(500, 500, 500, 50, 10_000, 0, 100, 80, 100, false, 0), "a sharp point spins its window");
        assertEquals(new Turn.Park(100, 100), LineWatch.decide(500, 500, 500, 0, 10_000, 0, 100, 1_000, 100, false, 0), "spin capped at the bound");
        assertEquals(new Turn.Park(20, 20), LineWatch.decide(500, 500, 500, 0, 520, 0, 100, 1_000, 100, false, 0), "bound capped at the backstop");
        assertEquals(new Turn.Park(1, 1), LineWatch.decide(600, 500, 500, 0, 520, 0, 100, 1_000, 100, false, 0), "an overdue backstop: shortest bound");
    }

    @Test
    void only_a_predicted_sharp_point_spins_past_its_wake_a_diffuse_or_unpredicted_one_parks_in_slices() {
        // now, wakeAt, resumeAt, spread, nextBackstop, allowance, margin, spinWindow (200), parkNanos (1 000), backlogged, sleptNanos
        assertEquals(new Turn.Park(1_000, 0), LineWatch.decide(5_000, 5_000, 5_000, LineWait.NO_PREDICTION, 100_000, 0, 100, 200, 1_000, false, 0),
                "nothing predicts the store (cold, or a plan without an estimate): no spin");
        assertEquals(new Turn.Park(1_000, 200), LineWatch.decide(5_000, 5_000, 5_000, 0, 100_000, 0, 100, 200, 1_000, false, 0), "one sample, no spread yet: spins its window");
        assertEquals(new Turn.Park(1_000, 200), LineWatch.decide(5_000, 5_000, 5_000, 200, 100_000, 0, 100, 200, 1_000, false, 0), "sharp: spread within the window");
        assertEquals(new Turn.Park(1_000, 150), LineWatch.decide(5_050, 5_000, 5_000, 120, 100_000, 0, 100, 200, 1_000, false, 0), "sharp, part-way: the rest of the window");
        assertEquals(new Turn.Park(1_000, 0), LineWatch.decide(5_000, 5_000, 5_000, 201, 100_000, 0, 100, 200, 1_000, false, 0), "diffuse: just past the window");
        assertEquals(new Turn.Park(1_000, 0), LineWatch.decide(5_000, 5_000, 5_000, 4_500, 100_000, 0, 100, 200, 1_000, false, 0), "diffuse: 0.5-5 ms work");
        assertEquals(new Turn.Park(1_000, 0), LineWatch.decide(5_100, 5_000, 5_000, 4_500, 100_000, 0, 100, 200, 1_000, false, 0), "diffuse, past the wake: still no spin");
        assertEquals(new Turn.Sleep(5_000), LineWatch.decide(0, 5_000, 5_000, 4_500, 100_000, 0, 100, 200, 1_000, false, 0), "the sleep to the wake is unchanged");
        // sleptNanos 10 000: a tenth of the sleep (1 000) widens what counts as sharp; the spin covers the spread
        assertEquals(new Turn.Park(1_000, 900), LineWatch.decide(10_000, 10_000, 10_000, 900, 100_000, 0, 100, 200, 1_000, false, 10_000), "sharp for its length: spins its spread");
        assertEquals(new Turn.Park(1_000, 0), LineWatch.decide(10_000, 10_000, 10_000, 1_100, 100_000, 0, 100, 200, 1_000, false, 10_000), "past a tenth of the sleep: diffuse");
        assertEquals(new Turn.Park(1_000, 0), LineWatch.decide(10_000, 10_000, 10_000, 900, 100_000, 0, 100, 0, 1_000, false, 10_000),
                "a window of 0 (parkSpin 0): no spin, however sharp the point");
    }

    @Test
    void a_turn_on_a_diffuse_head_parks_without_spinning_and_on_a_sharp_head_spins() {
        LineWatch w = new LineWatch(line, PLAN, points, clock, warned::add, counters, 200_000);
        counters.registered();
        GpuFuture<Void> diffuse = new GpuFuture<>(++ids, new MemoryDescriptor(line, Slot.of(0), 1), neverDone(), null,
                Runnable::run, clock.nanos(), clock.nanos(), 4_500_000, "diffuse");
        w.add(diffuse.lineWait);
        w.snapshot();
        assertEquals(0, ((Turn.Park) w.next(false, false)).spin(), "a 4.5 ms spread: no spin");
        counters.registered();
        GpuFuture<Void> sharp = new GpuFuture<>(++ids, new MemoryDescriptor(line, Slot.of(1), 1), neverDone(), null,
                Runnable::run, clock.nanos(), clock.nanos() - 1, 20_000, "sharp");
        w.add(sharp.lineWait);
        w.snapshot();
        assertTrue(((Turn.Park) w.next(false, false)).spin() > 0, "the earliest head is sharp: spins");
    }

    @Test
    void a_head_past_its_halved_wake_gives_way_to_another_heads_earlier_wake() {
        // A's prediction was halved (wake 200 us, its exact floor 900 us); B wakes at 500 us. Past A's
        // wake, A wants the parker only at its floor: B's wake comes first, not A's second sleep.
        counters.registered();
        GpuFuture<Void> a = new GpuFuture<>(++ids, new MemoryDescriptor(line, Slot.of(0), 1), neverDone(), null,
                Runnable::run, clock.nanos(), 200_000, 900_000, 0, null, null, Inline.NONE, Reports.IN_PLACE);
        watch.add(a.lineWait);
        waitOn(1, 1, new FakePort(), 500_000, null);
        assertEquals(new Turn.Sleep(200_000), turn(false), "before A's wake: A's wake");
        clock.advance(300_000);
        assertEquals(new Turn.Sleep(500_000), turn(false), "past it: B's wake, then A's floor");
        clock.advance(250_000);
        assertInstanceOf(Turn.Park.class, turn(false), "past B's wake: B is watched on in slices");
    }

    @Test
    void with_a_backlog_the_decision_neither_wakes_early_nor_spins() {
        // now, wakeAt, resumeAt, spread, nextBackstop, allowance, margin, spinWindow, parkNanos, backlogged, sleptNanos
        assertEquals(new Turn.Sleep(500), LineWatch.decide(0, 800, 800, 0, 10_000, 400, 100, 0, 100, false, 0), "early by the excess");
        assertEquals(new Turn.Sleep(800), LineWatch.decide(0, 800, 800, 0, 10_000, 400, 100, 0, 100, true, 0), "to the wake itself");
        assertEquals(new Turn.Sleep(300), LineWatch.decide(0, 800, 800, 0, 300, 400, 100, 0, 100, true, 0), "the backstop still comes first");
        assertEquals(new Turn.Park(100, 0), LineWatch.decide(800, 800, 800, 50, 10_000, 0, 100, 1_000, 100, true, 0), "no spin window, no spread");
        assertEquals(new Turn.Park(20, 0), LineWatch.decide(800, 800, 800, 50, 820, 0, 100, 1_000, 100, true, 0));
    }

    @Test
    void a_backlogged_turn_sleeps_to_the_wake_in_spite_of_the_oversleep_allowance() {
        watch.afterTimedSleep(0, 400_000);
        waitOn(0, 1, new FakePort(), 800_000, null);
        watch.snapshot();
        assertEquals(new Turn.Sleep(800_000), watch.next(false, true));
        assertEquals(new Turn.Sleep(500_000), watch.next(false, false));
    }

    @Test
    void a_scan_of_many_waits_over_several_slots_settles_them_oldest_registration_first() {
        // Slot by slot would settle 1, 9, 17, ... then 2, 10, ...: the woken threads resumed a stride apart
        // (docs/SCALE.md, "The order of a batch's resumes").
        int n = 80;
        List<Long> settled = new ArrayList<>();
        long first = ids + 1;
        for (int i = 0; i < n; i++) {
            long id = first + i;
            waitOn(i % 8, i / 8 + 1, new FakePort(), 0, null).toCompletableFuture().thenRun(() -> settled.add(id));
        }
        for (int s = 0; s < 8; s++) line.store(Slot.of(s), n / 8);
        turn(false);
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) expected.add(first + i);
        assertEquals(expected, settled);
        assertEquals(0, counters.registrations());
    }

    @Test
    void a_scan_takes_out_every_reached_wait_before_it_hands_any_over() {
        List<List<Integer>> seenAtHandOver = new ArrayList<>();
        GpuFuture<Void> a = waitOn(0, 1, new FakePort(), 0, null), b = waitOn(0, 2, new FakePort(), 0, null);
        GpuFuture<Void> c = waitOn(4, 1, new FakePort(), 0, null);
        waitOn(4, 9, new FakePort(), 0, null);
        for (GpuFuture<Void> f : List.of(a, b, c)) f.toCompletableFuture().thenRun(() -> seenAtHandOver.add(watch.slotSizes()));
        line.store(Slot.of(0), 2);
        line.store(Slot.of(4), 1);
        turn(false);
        List<Integer> afterScan = List.of(0, 0, 0, 0, 1, 0, 0, 0);
        assertEquals(List.of(afterScan, afterScan, afterScan), seenAtHandOver, "an unpark ran before the scan had taken out every reached wait");
    }

    @Test
    void a_hand_over_that_throws_leaves_no_taken_out_wait_unsettled() {
        GpuFuture<Void> a = waitOn(0, 1, new FakePort(), 0, null), b = waitOn(0, 2, new FakePort(), 0, null);
        a.toCompletableFuture().thenRun(() -> { throw new IllegalStateException("an unpark failed"); });
        line.store(Slot.of(0), 2);
        try {
            turn(false);
        } catch (IllegalStateException expected) {
            // the runner's loop catches this and fails what the turn holds
        }
        ReactorException why = new ReactorException(ErrorCode.ParkerDied, "t", "x");
        watch.failAll(why);
        assertNotEquals(GpuFuture.PENDING, a.rawState());
        assertNotEquals(GpuFuture.PENDING, b.rawState(), "a wait the scan took out was stranded");
    }

    @Test
    void backstop_pieces_of_a_long_sleep_raise_the_allowance_but_only_deadline_sleeps_decay_it() {
        waitOn(0, 1, new FakePort(), 10_000_000, null); // a 10 ms wait: ten 1 ms pieces, cut by the backstop
        Turn t = turn(false);
        assertEquals(new Turn.Sleep(1_000_000), t);
        clock.advance(1_300_000);
        watch.afterTimedSleep(1_000_000, clock.nanos()); // the OS woke the first piece 300 µs late
        assertEquals(300_000, watch.oversleepAllowanceNanos());
        for (int piece = 2; piece <= 9; piece++) { // eight more pieces, each on time
            Turn.Sleep s = assertInstanceOf(Turn.Sleep.class, turn(true));
            clock.advance(s.at() - clock.nanos());
            watch.afterTimedSleep(s.at(), clock.nanos());
        }
        assertEquals(300_000, watch.oversleepAllowanceNanos(), "backstop pieces decayed the allowance");
        // The last piece ends at the wake, early by the allowance's excess over the margin.
        assertEquals(new Turn.Sleep(10_000_000 - (300_000 - 100_000)), turn(true));
        clock.advance(9_800_000 - clock.nanos());
        watch.afterTimedSleep(9_800_000, clock.nanos());
        assertEquals(300_000 - 300_000 / 8, watch.oversleepAllowanceNanos(), "a deadline sleep on time decays it");
    }
}
