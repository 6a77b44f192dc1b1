package dev.gpureactor.soak;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's completion lines, each over 64 bytes of its own shared {@link Arena}, wrapped with
 * {@link CompletionLine#wrap} and a release that closes the arena and counts the bytes freed: the
 * off-heap accounting the JDK does not keep for arenas. One line is replaced each round, so lines
 * are closed, and their parkers replaced, under load all along.
 *
 * <p>Each close is checked at once: the arena's scope must be dead (the memory is returned) and a
 * read of the closed line must be the coded {@link ErrorCode#LineClosed}, never a read of freed
 * memory. Only the soak's driver thread calls {@link #rotate} and {@link #closeAll}; the counters
 * are atomic because a line's release runs on whichever thread closes it.
 */
final class SoakLines {
    private record Live(CompletionLine line, MemorySegment.Scope scope) {}

    private final Deque<Live> live = new ArrayDeque<>();
    private final AtomicLong allocated = new AtomicLong(), freed = new AtomicLong(), linesFreed = new AtomicLong();
    private final List<String> bad = new ArrayList<>();
    private long made, closedChecked, codedReads;

    SoakLines(int n) {
        for (int i = 0; i < n; i++) live.addLast(allocate());
    }

    private Live allocate() {
        Arena arena = Arena.ofShared();
        MemorySegment seg = arena.allocate(CompletionLine.BYTES, CompletionLine.BYTES);
        long size = seg.byteSize();
        allocated.addAndGet(size);
        made++;
        CompletionLine line = CompletionLine.wrap(seg, "soak-" + made, () -> {
            arena.close();
            freed.addAndGet(size);
            linesFreed.incrementAndGet();
        });
        return new Live(line, seg.scope());
    }

    List<CompletionLine> lines() { return live.stream().map(Live::line).toList(); }

    /** Closes the oldest line (it has no waiter left) and adds a fresh one. */
    void rotate() {
        close(live.removeFirst());
        live.addLast(allocate());
    }

    void closeAll() {
        while (!live.isEmpty()) close(live.removeFirst());
    }

    private void close(Live l) {
        l.line().close();
        l.line().close(); // a second close does nothing
        closedChecked++;
        if (l.scope().isAlive()) bad.add(l.line().name() + ": memory still allocated after close");
        try {
            l.line().word(Slot.of(0));
            bad.add(l.line().name() + ": read after close returned a value");
        } catch (ReactorException e) {
            if (e.code() == ErrorCode.LineClosed) codedReads++; else bad.add(l.line().name() + ": " + e.getMessage());
        }
    }

    /** The off-heap account; complete once every line is closed. */
    SoakReport.OffHeap account() {
        return new SoakReport.OffHeap(made, linesFreed.get(), allocated.get(), freed.get(), codedReads, closedChecked, bad);
    }
}
