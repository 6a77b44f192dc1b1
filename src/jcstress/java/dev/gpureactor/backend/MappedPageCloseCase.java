package dev.gpureactor.backend;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.openjdk.jcstress.infra.results.JJ_Result;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The body of {@link MappedPageCloseStress} and of {@link MappedPageCloseNegativeControl}, written
 * once: the control differs only by the page's {@code scopedView} (false: the host view has global
 * scope).
 */
final class MappedPageCloseCase {
    private final MappedPage page;

    /** The test's case: as the library builds it. */
    MappedPageCloseCase() {
        this(true);
    }

    /** A negative control's case: {@code scopedView} changes its one line. */
    MappedPageCloseCase(boolean scopedView) {
        page = MappedPage.create(new HeapDriver(), "stress", LineOptions.defaults(), scopedView);
        page.line().store(Slot.of(0), 42);
    }

    void reader(JJ_Result r) {
        MemorySegment held;
        try {
            held = page.line().segment();
        } catch (ReactorException closed) {
            r.r1 = r.r2 = -1;
            return;
        }
        r.r1 = read(page.line());
        try {
            r.r2 = held.get(ValueLayout.JAVA_LONG, 0);
        } catch (IllegalStateException closed) {
            r.r2 = -1;
        }
    }

    void closer() {
        page.line().close();
    }

    private static long read(CompletionLine line) {
        try {
            return line.word(Slot.of(0));
        } catch (ReactorException closed) {
            return -1;
        }
    }
}
