package dev.gpureactor.core;

import static dev.gpureactor.core.Coded.assertCoded;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The completion line, its slots, and its lifetime: wrap checks, idempotent close, coded access after close. */
class CompletionLineTest {
    @Test
    void a_fresh_line_reads_zero() {
        try (CompletionLine line = CompletionLine.allocate()) {
            assertArrayEquals(new long[8], line.snapshot());
            for (int i = 0; i < CompletionLine.WORDS; i++) {
                assertEquals(0, line.word(Slot.of(i)));
                assertEquals(0, line.wordVolatile(Slot.of(i)));
            }
            assertEquals(64, line.segment().byteSize());
            assertEquals(0, line.segment().address() % 64, "64-byte aligned");
            assertFalse(line.isClosed());
        }
    }

    @Test
    void each_slot_stores_and_reads_its_own_word() {
        try (CompletionLine line = CompletionLine.allocate()) {
            long[] values = {1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 0x0123_4567_89AB_CDEFL, 42, 0, 7};
            for (int i = 0; i < 8; i++) {
                line.store(Slot.of(i), values[i]);
                for (int j = 0; j < 8; j++) {
                    long want = j <= i ? values[j] : 0;
                    assertEquals(want, line.word(Slot.of(j)), "slot " + j + " after storing slot " + i);
                    assertEquals(want, line.wordVolatile(Slot.of(j)));
                }
            }
            assertArrayEquals(values, line.snapshot());
            for (int i = 0; i < 8; i++) {
                assertEquals(values[i], line.segment().get(ValueLayout.JAVA_LONG, 8L * i), "word i is at byte 8i");
            }
        }
    }

    @Test
    void a_line_names_itself() {
        try (CompletionLine a = CompletionLine.allocate(); CompletionLine b = CompletionLine.allocate()) {
            assertTrue(a.name().startsWith("line-"), a.name());
            assertFalse(a.name().equals(b.name()), "two lines, two names");
            assertEquals(a.name(), a.toString());
            a.close();
            assertEquals(a.name() + " (closed)", a.toString());
        }
    }

    @Test
    void slots_are_zero_to_seven() {
        for (int i = 0; i < 8; i++) {
            assertEquals(i, Slot.of(i).index());
            assertEquals(8L * i, Slot.of(i).offset());
            assertSame(Slot.of(i), Slot.of(i));
            assertEquals(Slot.of(i), new Slot(i));
        }
        assertCoded(ErrorCode.SlotOutOfRange, List.of("-1"), () -> Slot.of(-1));
        assertCoded(ErrorCode.SlotOutOfRange, List.of("8"), () -> Slot.of(8));
        assertCoded(ErrorCode.SlotOutOfRange, List.of("8"), () -> new Slot(8));
        assertCoded(ErrorCode.SlotOutOfRange, List.of("-1"), () -> new Slot(-1));
        assertCoded(ErrorCode.SlotOutOfRange, () -> Slot.of(Integer.MIN_VALUE));
        assertCoded(ErrorCode.SlotOutOfRange, () -> Slot.of(Integer.MAX_VALUE));
        assertEquals("GAR-0009 SlotOutOfRange: slot 8 is out of range; a line has slots 0..7",
                assertThrows(ReactorException.class, () -> Slot.of(8)).getMessage());
    }

    @Test
    void a_store_into_read_only_memory_is_refused_coded() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment page = arena.allocate(64, 64);
            CompletionLine line = CompletionLine.wrap(page.asReadOnly(), "read-only", () -> { });
            assertEquals(0, line.word(Slot.of(0)), "a read-only line reads");
            // Before: the JDK's own uncoded exception.
            ReactorException e = assertThrows(ReactorException.class, () -> line.store(Slot.of(0), 1));
            assertEquals(ErrorCode.InvalidArgument, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("read-only") && e.getMessage().contains("writable"), e.getMessage());
            line.close();
        }
    }

    @Test
    void wrap_uses_foreign_memory_and_releases_it_once() {
        try (Arena arena = Arena.ofShared()) { // shared: parkers read a line from their own threads
            MemorySegment page = arena.allocate(128, 64);
            AtomicInteger released = new AtomicInteger();
            CompletionLine line = CompletionLine.wrap(page.asSlice(64), "mapped", released::incrementAndGet);
            assertEquals("mapped", line.name());
            assertEquals(64, line.segment().byteSize());
            line.store(Slot.of(3), 99);
            assertEquals(99, page.get(ValueLayout.JAVA_LONG, 64 + 24));
            page.set(ValueLayout.JAVA_LONG, 64 + 56, 5);
            assertEquals(5, line.word(Slot.of(7)));
            line.close();
            line.close();
            assertEquals(1, released.get(), "release runs once");
            assertEquals(99, page.get(ValueLayout.JAVA_LONG, 64 + 24), "the owner's memory is the owner's");
        }
    }

    @Test
    void wrap_takes_the_first_64_bytes_of_a_larger_segment() {
        try (Arena arena = Arena.ofShared()) { // shared: parkers read a line from their own threads
            MemorySegment page = arena.allocate(4096, 4096);
            CompletionLine line = CompletionLine.wrap(page, "page", () -> {});
            assertEquals(64, line.segment().byteSize());
            assertEquals(page.address(), line.segment().address());
        }
    }

    @Test
    void wrap_refuses_memory_that_cannot_hold_a_line() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment aligned = arena.allocate(128, 64);
            AtomicInteger released = new AtomicInteger();
            ReactorException small = assertCoded(ErrorCode.BadLineSegment,
                    () -> CompletionLine.wrap(aligned.asSlice(0, 32), "small", released::incrementAndGet));
            assertEquals("32", small.args().get(0));
            assertCoded(ErrorCode.BadLineSegment, () -> CompletionLine.wrap(aligned.asSlice(0, 63), "small", () -> {}));
            assertCoded(ErrorCode.BadLineSegment, List.of("120", "8"),
                    () -> CompletionLine.wrap(aligned.asSlice(8), "misaligned", released::incrementAndGet));
            assertCoded(ErrorCode.BadLineSegment, List.of("96", "32"), () -> CompletionLine.wrap(aligned.asSlice(32), "half", () -> {}));
            assertCoded(ErrorCode.BadLineSegment, List.of("128", "heap memory"),
                    () -> CompletionLine.wrap(MemorySegment.ofArray(new long[16]), "heap", released::incrementAndGet));
            assertCoded(ErrorCode.BadLineSegment, List.of("0", "null"), () -> CompletionLine.wrap(MemorySegment.NULL, "null", () -> {}));
            assertEquals(0, released.get(), "a refused wrap does not release what it never took");
        }
        assertThrows(NullPointerException.class, () -> CompletionLine.wrap(null, "x", () -> {}));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(64, 64);
            assertThrows(NullPointerException.class, () -> CompletionLine.wrap(s, null, () -> {}));
            assertThrows(NullPointerException.class, () -> CompletionLine.wrap(s, "x", null));
        }
    }

    @Test
    void close_twice_is_a_no_op() {
        CompletionLine line = CompletionLine.allocate();
        line.close();
        assertTrue(line.isClosed());
        line.close();
        assertTrue(line.isClosed());
    }

    @Test
    void every_access_after_close_is_line_closed() {
        CompletionLine line = CompletionLine.allocate();
        MemoryDescriptor d = new MemoryDescriptor(line, Slot.of(2), 1);
        line.store(Slot.of(2), 1);
        assertTrue(d.isComplete());
        line.close();
        String name = line.name();
        List<Executable> reads = List.of(() -> line.word(Slot.of(0)), () -> line.wordVolatile(Slot.of(7)), line::snapshot,
                line::segment, d::isComplete, d::isCompleteVolatile);
        for (Executable read : reads) {
            ReactorException e = assertCoded(ErrorCode.LineClosed, read);
            assertEquals(name, e.args().get(0));
        }
        assertCoded(ErrorCode.LineClosed, List.of(name, "store"), () -> line.store(Slot.of(1), 5));
        assertCoded(ErrorCode.LineClosed, List.of(name, "read"), () -> line.word(Slot.of(1)));
        assertCoded(ErrorCode.LineClosed, List.of(name, "access"), line::segment);
    }

    @Test
    void a_wrapped_line_whose_memory_went_away_reads_as_closed_not_as_a_crash() {
        Arena arena = Arena.ofShared();
        CompletionLine line = CompletionLine.wrap(arena.allocate(64, 64), "gone", () -> {});
        assertFalse(line.isClosed());
        arena.close();
        assertTrue(line.isClosed(), "its reads throw LineClosed: it says it is closed, so an await fails at once");
        assertCoded(ErrorCode.LineClosed, List.of("gone", "read"), () -> line.word(Slot.of(0)));
        assertCoded(ErrorCode.LineClosed, List.of("gone", "read"), () -> line.wordVolatile(Slot.of(0)));
        assertCoded(ErrorCode.LineClosed, List.of("gone", "store"), () -> line.store(Slot.of(0), 1));
        line.close();
    }

    @Test
    void close_listeners_run_once_before_the_memory_is_released() {
        List<String> events = new ArrayList<>();
        Arena arena = Arena.ofShared();
        CompletionLine line = CompletionLine.wrap(arena.allocate(64, 64), "l", () -> {
            events.add("release");
            arena.close();
        });
        line.onClose(() -> events.add("a"));
        line.onClose(() -> events.add("b:" + line.isClosed()));
        assertEquals(List.of(), events);
        line.close();
        assertEquals(List.of("a", "b:true", "release"), events);
        line.close();
        assertEquals(3, events.size(), "a second close runs nothing");
        line.onClose(() -> events.add("late"));
        assertEquals(List.of("a", "b:true", "release", "late"), events, "a listener added after close runs at once");
        line.close();
        assertEquals(4, events.size());
        assertThrows(NullPointerException.class, () -> line.onClose(null));
    }

    @Test
    void a_listener_that_throws_does_not_stop_the_others_or_the_release() {
        AtomicInteger released = new AtomicInteger();
        List<String> ran = new ArrayList<>();
        Arena arena = Arena.ofShared();
        CompletionLine line = CompletionLine.wrap(arena.allocate(64, 64), "l", () -> {
            released.incrementAndGet();
            arena.close();
        });
        IllegalStateException boom = new IllegalStateException("boom");
        line.onClose(() -> ran.add("first"));
        line.onClose(() -> { throw boom; });
        line.onClose(() -> ran.add("third"));
        IllegalStateException thrown = assertThrows(IllegalStateException.class, line::close);
        assertSame(boom, thrown);
        assertEquals(List.of("first", "third"), ran);
        assertEquals(1, released.get());
        assertTrue(line.isClosed());
        line.close();
        assertEquals(1, released.get());
        assertFalse(arena.scope().isAlive());
    }

    @Test
    void an_allocated_line_frees_its_memory_on_close() {
        CompletionLine line = CompletionLine.allocate();
        MemorySegment seg = line.segment();
        line.close();
        assertFalse(seg.scope().isAlive());
    }

    @Test
    void a_segment_taken_before_close_throws_instead_of_reading_after_it() {
        CompletionLine line = CompletionLine.allocate();
        MemorySegment seg = line.segment();
        line.close();
        assertThrows(IllegalStateException.class, () -> seg.get(ValueLayout.JAVA_LONG, 0));
        assertCoded(ErrorCode.LineClosed, List.of(line.name(), "read"), () -> line.word(Slot.of(0)));
    }

    @Test
    void close_waits_out_a_native_call_that_holds_the_line_then_frees_it() throws Exception {
        // Without the wait, arena.close() throws IllegalStateException at once, close() rethrows it, and the
        // arena is never closed (its memory never freed).
        CompletionLine line = CompletionLine.allocate();
        MemorySegment seg = line.segment();
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        Thread closer;
        try (NativeHold hold = NativeHold.start(seg)) {
            closer = Thread.ofPlatform().start(() -> {
                try {
                    line.close();
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            closer.join(200); // a hang guard only: close must still be waiting while the call holds the line
            assertTrue(hold.holding());
            assertTrue(closer.isAlive() || failed.get() != null, "close returned while a native call held the line");
            assertEquals(null, failed.get(), "close must wait, not throw");
            assertTrue(seg.scope().isAlive(), "memory is not freed under the native call");
            assertTrue(line.isClosed(), "the line refuses new accesses at once");
        }
        closer.join();
        assertEquals(null, failed.get());
        assertFalse(seg.scope().isAlive(), "freed once the call returned");
    }

    @Test
    void a_native_call_that_outlasts_the_close_limit_leaks_the_line_with_a_coded_warning() throws Exception {
        List<Warning> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletionLine line = CompletionLine.allocate(java.time.Duration.ofMillis(20), warnings::add);
        MemorySegment seg = line.segment();
        try (NativeHold hold = NativeHold.start(seg)) {
            line.close();
            assertTrue(hold.holding());
            assertEquals(1, warnings.size(), warnings.toString());
            assertEquals(ErrorCode.LineLeaked, warnings.getFirst().code());
            assertEquals(line.name(), warnings.getFirst().args().getFirst());
            assertTrue(seg.scope().isAlive(), "leaked, never freed under the call");
            assertCoded(ErrorCode.LineClosed, () -> line.word(Slot.of(0)));
        }
    }
}
