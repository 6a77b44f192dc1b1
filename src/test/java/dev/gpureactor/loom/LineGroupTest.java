package dev.gpureactor.loom;

import dev.gpureactor.parker.ReactorCounters;
import dev.gpureactor.parker.Turn;
import dev.gpureactor.parker.LineWatch;
import dev.gpureactor.parker.LineGroup;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A parker's turn over several lines ({@link LineGroup}), single-threaded on a manual clock: no
 * thread, no parker. The test plays the runner (snapshot, intake, turn) and the device (stores).
 * The plan is {@link LineWatchTest#PLAN}: park bound 100 µs, backstop 1 ms, margin 100 µs; no spin
 * window.
 */
class LineGroupTest {
    final ManualClock clock = new ManualClock();
    final ReactorCounters counters = new ReactorCounters();
    final CompletionLine a = line("a"), b = line("b"), c = line("c");
    long ids;

    static CompletionLine line(String name) {
        return CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), name, () -> { });
    }

    LineGroup group(boolean parkArmsOneLine) {
        return new LineGroup(a, LineWatchTest.PLAN, new PointTable<>(), clock, w -> { }, counters, 0, parkArmsOneLine, true);
    }

    GpuFuture<Void> waitOn(CompletionLine line, int slot, long target, long wakeAt) {
        counters.registered();
        return new GpuFuture<>(++ids, new MemoryDescriptor(line, Slot.of(slot), target), LineWatchTest.neverDone(), null,
                Runnable::run, clock.nanos(), wakeAt, 0, null);
    }

    /** One turn as the runner runs it: snapshot, then the intake, then the group's turn. */
    static Turn turn(LineGroup g, GpuFuture<?>... registrations) {
        g.snapshot();
        for (GpuFuture<?> f : registrations) g.add(f.lineWait);
        return g.next(false, false);
    }

    static int state(GpuFuture<?> f) {
        return f.rawState();
    }

    static ErrorCode failure(GpuFuture<?> f) {
        return ((ReactorException) f.exceptionNow()).code();
    }

    @Test
    void registrations_are_routed_to_their_lines_watch_made_on_the_lines_first() {
        LineGroup g = group(false);
        assertEquals(1, g.lines(), "the first line's watch is made with the group");
        assertEquals(Turn.IDLE, turn(g));
        GpuFuture<Void> a0 = waitOn(a, 0, 1, 0), b3 = waitOn(b, 3, 1, 0), b4 = waitOn(b, 4, 1, 0), c7 = waitOn(c, 7, 1, 0);
        turn(g, a0, b3, b4, c7);
        assertEquals(3, g.lines());
        assertEquals(List.of(1, 0, 0, 0, 0, 0, 0, 0), g.slotSizes(a));
        assertEquals(List.of(0, 0, 0, 1, 1, 0, 0, 0), g.slotSizes(b));
        assertEquals(List.of(0, 0, 0, 0, 0, 0, 0, 1), g.slotSizes(c));
        assertEquals(4, g.waiting());
        assertEquals(List.of(a, b, c), lines(g.armFor()));
        // A removal goes to its line's watch alone.
        g.remove(b3.lineWait);
        assertEquals(List.of(0, 0, 0, 0, 1, 0, 0, 0), g.slotSizes(b));
        assertEquals(List.of(1, 0, 0, 0, 0, 0, 0, 0), g.slotSizes(a));
        // A store completes only the waits of its own line and slot.
        b.store(Slot.of(4), 1);
        turn(g);
        assertEquals(List.of(GpuFuture.COMPLETED, GpuFuture.PENDING, GpuFuture.PENDING), List.of(state(b4), state(a0), state(c7)));
        assertEquals(2, g.waiting());
    }

    @Test
    void a_watch_made_by_the_intake_answers_again_and_the_next_turn_scans_its_snapshot() {
        LineGroup g = group(false);
        GpuFuture<Void> a0 = waitOn(a, 0, 1, 0);
        assertInstanceOf(Turn.Park.class, turn(g, a0), "a's watch was snapshotted before this intake");
        GpuFuture<Void> b0 = waitOn(b, 0, 1, 0);
        b.store(Slot.of(0), 1); // before b's watch has any snapshot
        assertEquals(Turn.AGAIN, turn(g, b0), "b's watch is new: no snapshot from before its registration");
        assertEquals(GpuFuture.PENDING, state(b0), "a new watch is not scanned against a snapshot it never took");
        assertEquals(GpuFuture.PENDING, state(a0));
        assertEquals(Turn.AGAIN, turn(g), "b's last wait settled");
        assertEquals(GpuFuture.COMPLETED, state(b0), "the next turn snapshots b first and sees its store");
        assertEquals(1, g.waiting());
        assertInstanceOf(Turn.Park.class, turn(g), "a alone waits");
    }

    @Test
    void a_closed_line_is_dropped_alone_and_its_waits_fail_LineClosed() {
        LineGroup g = group(false);
        GpuFuture<Void> a0 = waitOn(a, 0, 1, 0), b0 = waitOn(b, 0, 1, 0), c0 = waitOn(c, 0, 1, 0);
        turn(g, a0, b0, c0);
        turn(g);
        b.close();
        assertInstanceOf(Turn.Park.class, turn(g), "the snapshot drops b's watch; a and c go on");
        assertEquals(ErrorCode.LineClosed, failure(b0));
        assertEquals(List.of(GpuFuture.PENDING, GpuFuture.PENDING), List.of(state(a0), state(c0)));
        assertEquals(List.of(a, c), lines(g.armFor()));
        assertEquals(List.of(), g.slotSizes(b), "no watch of b");
        // The close notice: drops c's watch with the notice's error, alone.
        ReactorException why = new ReactorException(ErrorCode.LineClosed, c.name(), "wait");
        g.snapshot();
        g.closeLine(c, why);
        assertSame(why, c0.exceptionNow());
        assertInstanceOf(Turn.Park.class, g.next(false, false), "a dropped watch is not one made since the snapshot");
        assertEquals(List.of(a), lines(g.armFor()));
        assertEquals(GpuFuture.PENDING, state(a0));
        // A registration routed after its line's close makes a new watch (Again), which the next turn fails and drops.
        GpuFuture<Void> b1 = waitOn(b, 1, 1, 0);
        assertEquals(Turn.AGAIN, turn(g, b1));
        assertEquals(2, g.lines());
        assertInstanceOf(Turn.Park.class, turn(g));
        assertEquals(ErrorCode.LineClosed, failure(b1));
        assertEquals(1, g.lines());
        assertEquals(GpuFuture.PENDING, state(a0));
        assertEquals(1, counters.registrations(), "every failed wait is counted out; a's stays");
    }

    @Test
    void dropClosedLines_drops_only_the_closed_lines() {
        LineGroup g = group(false);
        GpuFuture<Void> a0 = waitOn(a, 0, 1, 0), b0 = waitOn(b, 0, 1, 0), c0 = waitOn(c, 0, 1, 0);
        turn(g, a0, b0, c0);
        assertFalse(g.dropClosedLines());
        a.close();
        c.close();
        assertTrue(g.dropClosedLines());
        assertEquals(List.of(b), lines(g.armFor()));
        assertEquals(List.of(ErrorCode.LineClosed, ErrorCode.LineClosed), List.of(failure(a0), failure(c0)));
        assertEquals(GpuFuture.PENDING, state(b0));
    }

    @Test
    void the_group_answers_with_its_lines_turns_combined() {
        LineGroup g = group(false);
        // a: reached its predicted wake, parks (bound 100 µs); b: predicted in 50 µs, sleeps to it.
        GpuFuture<Void> a0 = waitOn(a, 0, 1, 0), b0 = waitOn(b, 0, 1, 50_000);
        turn(g, a0, b0);
        assertEquals(new Turn.Park(50_000, 0), turn(g), "a park that ends no later than b's sleep would");
        // c: predicted in 20 µs, its sleep ends earlier still.
        GpuFuture<Void> c0 = waitOn(c, 0, 1, 20_000);
        turn(g, c0);
        assertEquals(new Turn.Park(20_000, 0), turn(g));
        // a's last wait settles: its Again beats the others' sleeps; then two sleeps, the earlier one.
        a.store(Slot.of(0), 1);
        assertEquals(Turn.AGAIN, turn(g));
        assertEquals(GpuFuture.COMPLETED, state(a0));
        assertEquals(new Turn.Sleep(20_000), turn(g));
        // c's last wait settles: its Again beats b's sleep.
        c.store(Slot.of(0), 1);
        assertEquals(Turn.AGAIN, turn(g));
        assertEquals(new Turn.Sleep(50_000), turn(g), "b alone");
        b.store(Slot.of(0), 1);
        assertEquals(Turn.AGAIN, turn(g));
        assertEquals(Turn.IDLE, turn(g), "three idle lines");
        assertEquals(0, g.waiting());
        assertEquals(0, counters.registrations());
    }

    @Test
    void either_again_beats_park_beats_sleep_beats_idle() {
        long now = 1_000_000;
        Turn.Sleep early = new Turn.Sleep(now + 300_000), late = new Turn.Sleep(now + 900_000);
        Turn.Park wide = new Turn.Park(100_000, 20_000), narrow = new Turn.Park(40_000, 0);
        List<Turn> all = List.of(Turn.IDLE, early, late, wide, narrow, Turn.AGAIN);
        for (Turn t : all) {
            assertSame(Turn.AGAIN, LineGroup.either(t, Turn.AGAIN, now));
            assertSame(Turn.AGAIN, LineGroup.either(Turn.AGAIN, t, now));
            assertSame(t, LineGroup.either(Turn.IDLE, t, now));
            assertSame(t, LineGroup.either(t, Turn.IDLE, now));
            for (Turn u : all) assertEquals(LineGroup.either(t, u, now), LineGroup.either(u, t, now), t + " with " + u);
        }
        assertEquals(new Turn.Park(40_000, 20_000), LineGroup.either(wide, narrow, now));
        assertEquals(early, LineGroup.either(late, early, now));
        assertEquals(new Turn.Park(40_000, 0), LineGroup.either(narrow, early, now));
        assertEquals(new Turn.Park(1, 0), LineGroup.either(narrow, new Turn.Sleep(now - 5), now), "a sleep already due: park at once");
    }

    @Test
    void a_park_covers_every_line_or_under_a_monitor_the_one_busy_line() {
        LineGroup polls = group(false), monitor = group(true);
        GpuFuture<Void> a0 = waitOn(a, 0, 1, 0), b0 = waitOn(b, 0, 1, 0);
        GpuFuture<Void> a0m = waitOn(a, 0, 1, 0), b0m = waitOn(b, 0, 1, 0);
        turn(polls, a0, b0);
        turn(monitor, a0m, b0m);
        assertEquals(List.of(a, b), lines(polls.armFor()));
        assertEquals(List.of(a, b), lines(monitor.armFor()), "two busy lines: a monitor cannot arm both");
        b.store(Slot.of(0), 1);
        turn(polls);
        turn(monitor);
        assertEquals(List.of(a, b), lines(polls.armFor()), "a polling park covers idle lines too");
        assertEquals(List.of(a), lines(monitor.armFor()), "one busy line: the monitor arms it alone");
        a.store(Slot.of(0), 1);
        turn(monitor);
        assertEquals(List.of(a, b), lines(monitor.armFor()), "no busy line: all");
        List<LineWatch> armed = monitor.armFor();
        assertThrows(UnsupportedOperationException.class, () -> armed.add(armed.getFirst()), "published to registrars: immutable");
        LineGroup single = group(true);
        assertEquals(List.of(a), lines(single.armFor()), "one line: its watch");
    }

    @Test
    void failAll_fails_every_lines_waits_and_a_timed_sleep_is_booked_to_every_watch() {
        LineGroup g = group(false);
        GpuFuture<Void> a0 = waitOn(a, 0, 1, 0), b0 = waitOn(b, 2, 1, 0);
        turn(g, a0, b0);
        turn(g);
        g.afterTimedSleep(0, 300_000);
        for (LineWatch w : g.armFor()) assertTrue(w.oversleepAllowanceNanos() > 0, w.line().name() + " booked the OS's lateness");
        ReactorException died = new ReactorException(ErrorCode.ParkerDied, "p", "x");
        g.failAll(died);
        assertSame(died, a0.exceptionNow());
        assertSame(died, b0.exceptionNow());
        assertEquals(0, g.waiting());
        assertEquals(2, g.lines(), "the watches stay");
        assertEquals(0, counters.registrations());
    }

    static List<CompletionLine> lines(List<LineWatch> watches) {
        return watches.stream().map(LineWatch::line).toList();
    }
}
