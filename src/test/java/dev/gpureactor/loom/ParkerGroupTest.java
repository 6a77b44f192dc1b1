package dev.gpureactor.loom;

import dev.gpureactor.parker.ReactorCounters;
import dev.gpureactor.parker.Turn;
import dev.gpureactor.parker.SnapshotPark;
import dev.gpureactor.parker.LineWatch;
import dev.gpureactor.parker.LineGroup;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ManualClock;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static dev.gpureactor.loom.Poll.until;
import static org.junit.jupiter.api.Assertions.*;

/**
 * One parker over several lines ({@link GpuReactor.Builder#linesPerParker}): every wait of every
 * line completes, a line that closes fails only its own waits, the reactor's close fails them all,
 * and lines go to the least loaded parker up to the cap. The parkers use the pure-Java park
 * ({@code hardwarePark(false)}) so that they poll every line wherever the tests run. The waits are
 * not joined (a platform joiner would run the plan itself): the parker alone completes them.
 */
class ParkerGroupTest {

    /** Never done, never failed: only a store completes a wait on it. */
    private static final CompletionPort NEVER = new CompletionPort() {
        @Override public boolean query() { return false; }
        @Override public void block() { }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    };

    private static GpuReactor reactor(int linesPerParker) {
        return GpuReactor.builder().carriers(1).hardwarePark(false).linesPerParker(linesPerParker)
                .plan("flag:park_us=100,backstop_us=1000").warnings(w -> { }).build();
    }

    @Test
    void a_parker_over_2_to_8_lines_completes_every_wait() throws Exception {
        for (int n : new int[] {2, 3, 8}) {
            List<CompletionLine> lines = new ArrayList<>();
            try (GpuReactor r = reactor(8)) {
                for (int i = 0; i < n; i++) lines.add(CompletionLine.allocate());
                List<GpuFuture<Void>> waits = new ArrayList<>();
                for (int round = 1; round <= 3; round++) {
                    waits.clear();
                    for (CompletionLine line : lines) {
                        for (int s = 0; s < CompletionLine.WORDS; s++) waits.add(r.await(new MemoryDescriptor(line, Slot.of(s), round), NEVER));
                    }
                    assertEquals(1, parkersOf(r, lines).size(), n + " lines share one parker");
                    // Stores in a random order, each line's slots interleaved with the others'.
                    List<int[]> stores = new ArrayList<>();
                    for (int l = 0; l < n; l++) for (int s = 0; s < CompletionLine.WORDS; s++) stores.add(new int[] {l, s});
                    Collections.shuffle(stores, new Random(n * 31L + round));
                    for (int[] st : stores) lines.get(st[0]).store(Slot.of(st[1]), round);
                    for (GpuFuture<Void> f : waits) until("every wait of " + n + " lines completes", f::isDone);
                    for (GpuFuture<Void> f : waits) assertEquals(GpuFuture.COMPLETED, f.rawState());
                }
                assertEquals(1, r.stats().parkersStarted(), "one parker thread for " + n + " lines");
            } finally {
                for (CompletionLine line : lines) line.close();
            }
        }
    }

    @Test
    void closing_one_line_of_a_shared_parker_fails_only_that_lines_waits() throws Exception {
        try (GpuReactor r = reactor(8); CompletionLine a = CompletionLine.allocate(); CompletionLine b = CompletionLine.allocate()) {
            GpuFuture<Void> onA = r.await(new MemoryDescriptor(a, Slot.of(0), 1), NEVER);
            GpuFuture<Void> onB = r.await(new MemoryDescriptor(b, Slot.of(3), 1), NEVER);
            GpuFuture<Void> onB2 = r.await(new MemoryDescriptor(b, Slot.of(4), 1), NEVER);
            LineParker p = r.parkerOf(a);
            assertSame(p, r.parkerOf(b));
            until("the parker holds both lines' waits", () -> p.slotSizes(b).equals(List.of(0, 0, 0, 1, 1, 0, 0, 0)));
            b.close(); // waits (bounded) for the parker to drop b's watch
            for (GpuFuture<Void> f : List.of(onB, onB2)) {
                until("b's wait fails", f::isDone);
                assertEquals(ErrorCode.LineClosed, ((ReactorException) f.exceptionNow()).code());
            }
            assertFalse(onA.isDone(), "a's wait is untouched by b's close");
            assertTrue(p.isLive(), "the parker goes on for a");
            GpuFuture<Void> onA2 = r.await(new MemoryDescriptor(a, Slot.of(1), 1), NEVER);
            assertSame(p, r.parkerOf(a));
            a.store(Slot.of(0), 1);
            a.store(Slot.of(1), 1);
            until("a's waits complete", () -> onA.isDone() && onA2.isDone());
            assertEquals(GpuFuture.COMPLETED, onA.rawState());
            assertEquals(GpuFuture.COMPLETED, onA2.rawState());
            until("the registrations are settled", () -> r.registrations() == 0);
            a.close();
            until("the parker leaves with its last line", () -> !p.isLive());
        }
    }

    @Test
    void a_wait_on_a_line_closed_under_a_shared_parker_fails_and_the_next_line_takes_a_live_parker() throws Exception {
        try (GpuReactor r = reactor(8); CompletionLine a = CompletionLine.allocate()) {
            GpuFuture<Void> onA = r.await(new MemoryDescriptor(a, Slot.of(0), 1), NEVER);
            CompletionLine b = CompletionLine.allocate();
            b.close();
            GpuFuture<Void> onB = r.await(new MemoryDescriptor(b, Slot.of(0), 1), NEVER);
            until("the wait on a closed line fails", onB::isDone);
            assertEquals(ErrorCode.LineClosed, ((ReactorException) onB.exceptionNow()).code());
            assertFalse(onA.isDone());
            a.store(Slot.of(0), 1);
            until("a's wait completes", onA::isDone);
            assertEquals(GpuFuture.COMPLETED, onA.rawState());
        }
    }

    @Test
    void reactor_close_fails_every_wait_of_every_line_of_a_shared_parker() throws Exception {
        List<CompletionLine> lines = new ArrayList<>();
        List<GpuFuture<Void>> waits = new ArrayList<>();
        GpuReactor r = reactor(4);
        try {
            for (int i = 0; i < 6; i++) lines.add(CompletionLine.allocate()); // two parkers: 4 + 2
            for (CompletionLine line : lines) {
                for (int s = 0; s < 2; s++) waits.add(r.await(new MemoryDescriptor(line, Slot.of(s), 1), NEVER));
            }
            Set<LineParker> parkers = parkersOf(r, lines);
            assertEquals(2, parkers.size());
            r.close();
            for (GpuFuture<Void> f : waits) {
                until("every wait fails", f::isDone);
                assertEquals(ErrorCode.ShutDown, ((ReactorException) f.exceptionNow()).code());
            }
            for (LineParker p : parkers) assertFalse(p.isLive());
        } finally {
            r.close();
            for (CompletionLine line : lines) line.close();
        }
    }

    @Test
    void lines_go_to_the_least_loaded_parker_up_to_the_cap_and_keep_it() throws Exception {
        List<CompletionLine> lines = new ArrayList<>();
        try (GpuReactor r = reactor(2)) {
            for (int i = 0; i < 6; i++) lines.add(CompletionLine.allocate());
            for (CompletionLine line : lines) r.await(new MemoryDescriptor(line, Slot.of(0), 1), NEVER);
            assertEquals(3, parkersOf(r, lines).size(), "6 lines, at most 2 per parker");
            assertSame(r.parkerOf(lines.get(0)), r.parkerOf(lines.get(1)));
            assertSame(r.parkerOf(lines.get(2)), r.parkerOf(lines.get(3)));
            assertSame(r.parkerOf(lines.get(4)), r.parkerOf(lines.get(5)));
            LineParker p0 = r.parkerOf(lines.get(0));
            // p0 keeps lines[1], the only parker with one line (no tie for the map's order to break);
            // a new line fills its room
            lines.get(0).close();
            CompletionLine late = CompletionLine.allocate();
            lines.add(late);
            r.await(new MemoryDescriptor(late, Slot.of(0), 1), NEVER);
            assertSame(p0, r.parkerOf(late), "the least loaded parker (one line) takes it");
            for (int i = 1; i < 4; i++) r.await(new MemoryDescriptor(lines.get(i), Slot.of(1), 1), NEVER);
            assertSame(p0, r.parkerOf(lines.get(1)), "a line keeps its parker");
            assertEquals(3, r.stats().parkersStarted());
        } finally {
            for (CompletionLine line : lines) line.close();
        }
    }

    @Test
    void either_combines_two_lines_turns_again_before_park_before_sleep_before_idle() {
        long now = 1_000_000;
        Turn idle = Turn.IDLE, again = Turn.AGAIN;
        Turn.Sleep early = new Turn.Sleep(now + 300_000), late = new Turn.Sleep(now + 900_000);
        Turn.Park wide = new Turn.Park(100_000, 20_000), narrow = new Turn.Park(40_000, 0);
        assertSame(again, LineGroup.either(wide, again, now));
        assertSame(again, LineGroup.either(again, idle, now));
        assertSame(wide, LineGroup.either(idle, wide, now));
        assertSame(wide, LineGroup.either(wide, idle, now));
        assertEquals(early, LineGroup.either(late, early, now));
        assertEquals(early, LineGroup.either(early, late, now));
        assertEquals(early, LineGroup.either(idle, early, now));
        // two parks: the earlier bound, the larger spin within it
        assertEquals(new Turn.Park(40_000, 20_000), LineGroup.either(wide, narrow, now));
        assertEquals(new Turn.Park(40_000, 20_000), LineGroup.either(narrow, wide, now));
        // a park with a sleep: parks, but no later than the sleep would end
        assertEquals(wide, LineGroup.either(wide, late, now));
        assertEquals(new Turn.Park(10_000, 10_000), LineGroup.either(new Turn.Sleep(now + 10_000), wide, now));
        assertEquals(new Turn.Park(1, 0), LineGroup.either(narrow, new Turn.Sleep(now - 5), now));
    }

    @Test
    void a_park_arms_every_watched_line_or_under_a_monitor_the_one_busy_line_and_a_registrar_on_another_ends_it() {
        CompletionLine a = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "a", () -> { });
        CompletionLine b = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "b", () -> { });
        CompletionLine c = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "c", () -> { });
        SnapshotPark monitor = new SnapshotPark() {
            @Override public long park(List<LineWatch> watches, long bound, long spin) { return 0; }
            @Override public boolean oneLine() { return true; }
        };
        LineParker p = new LineParker(a, monitor, LineWatchTest.PLAN, new PointTable<>(), new ManualClock(), w -> { },
                new ReactorCounters(), 0, null, null, false);
        p.inbox.register(future(a, 0).lineWait);
        p.inbox.register(future(b, 0).lineWait); // b's watch is made by this turn's drain
        assertInstanceOf(Turn.Again.class, p.step(false), "a new watch: the next turn snapshots it first");
        assertInstanceOf(Turn.Park.class, p.step(false));
        assertEquals(List.of(a, b), lines(p.armFor()), "two busy lines: a monitor cannot arm both, the fallback polls them");
        p.inbox.register(future(c, 0).lineWait); // c has no watch: a store on it ends no park
        p.step(false);
        p.step(false);
        assertEquals(3, p.watchedLines());
        b.store(Slot.of(0), 1);
        c.store(Slot.of(0), 1);
        p.step(false); // b's and c's waits complete: a alone is busy
        assertEquals(List.of(0, 0, 0, 0, 0, 0, 0, 0), p.slotSizes(b));
        assertEquals(List.of(a), lines(p.armFor()), "one busy line of three: the monitor arms it alone");
        GpuFuture<Void> onB = future(b, 1), onC = future(c, 1);
        p.inbox.register(onB.lineWait);
        p.inbox.register(onC.lineWait);
        b.close();
        c.close();
        // The closed lines' watches are dropped; the registrations, drained after, make new watches of
        // closed lines (Again), which the next turn fails and drops.
        assertInstanceOf(Turn.Again.class, p.step(false));
        assertInstanceOf(Turn.Park.class, p.step(false));
        assertEquals(1, p.watchedLines());
        for (GpuFuture<Void> f : List.of(onB, onC)) assertEquals(ErrorCode.LineClosed, ((ReactorException) f.exceptionNow()).code());
        assertEquals(List.of(a), lines(p.armFor()));
        assertTrue(p.inbox.announcePark(p.armFor()));
        p.inbox.register(future(a, 1).lineWait); // an armed line: its store ends the park, no wake
        assertTrue(p.inbox.isParking());
        CompletionLine d = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "d", () -> { });
        p.inbox.register(future(d, 0).lineWait); // not armed: the registrar ends the park
        assertFalse(p.inbox.isParking());
        assertFalse(p.inbox.announcePark(p.armFor()), "a registration waits in the inbox: turn again, do not park");
    }

    private static GpuFuture<Void> future(CompletionLine line, int slot) {
        return new GpuFuture<>(1, new MemoryDescriptor(line, Slot.of(slot), 1), LineWatchTest.neverDone(), null, Runnable::run, 0, 0, 0, null);
    }

    private static List<CompletionLine> lines(List<LineWatch> watches) {
        return watches.stream().map(LineWatch::line).toList();
    }

    private static Set<LineParker> parkersOf(GpuReactor r, List<CompletionLine> lines) {
        Set<LineParker> s = Collections.newSetFromMap(new IdentityHashMap<>());
        for (CompletionLine line : lines) s.add(r.parkerOf(line));
        return s;
    }
}
