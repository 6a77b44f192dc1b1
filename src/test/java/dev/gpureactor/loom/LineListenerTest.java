package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The line's onClose listener must not keep a closed reactor reachable for as long as the line lives. */
class LineListenerTest {
    private static final CompletionPort NEVER = new CompletionPort() {
        @Override public boolean query() { return false; }
        @Override public void block() { }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    };

    @Test
    void a_line_that_outlives_its_reactor_does_not_keep_it_reachable() throws Exception {
        try (CompletionLine line = CompletionLine.allocate()) {
            WeakReference<GpuReactor> ref = closedReactorThatWatched(line);
            for (int i = 0; i < 100 && !ref.refersTo(null); i++) {
                System.gc();
                Thread.sleep(20);
            }
            assertNull(ref.get(), "a closed, dropped reactor is collected while its line lives on");
        }
    }

    @Test
    void an_owned_listener_runs_once_on_close_with_its_owner_and_the_line() {
        List<String> ran = new ArrayList<>();
        Object owner = new Object() {
            @Override public String toString() { return "owner"; }
        };
        CompletionLine line = CompletionLine.allocate();
        line.onClose(owner, (o, l) -> ran.add(o + "@" + l.isClosed()));
        line.close();
        line.close();
        line.onClose(owner, (o, l) -> ran.add("late " + o));
        assertEquals(List.of("owner@true", "late owner"), ran);
    }

    private static WeakReference<GpuReactor> closedReactorThatWatched(CompletionLine line) {
        GpuReactor r = GpuReactor.builder().carriers(1).build();
        GpuFuture<Void> f = r.await(new MemoryDescriptor(line, Slot.of(0), 1), NEVER);
        f.cancel(false);
        r.close();
        return new WeakReference<>(r);
    }
}
