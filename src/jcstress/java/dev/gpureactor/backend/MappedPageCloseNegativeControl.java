package dev.gpureactor.backend;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Negative control for {@link MappedPageCloseStress}, never run in CI: the host view has global scope
 * (one line of the fix removed, through the package-private {@code scopedView} switch), so a reader
 * that passed the closed flag reads the freed page. Expect BUILD FAILURE with a count of 57005.
 * Otherwise as MappedPageCloseStress: a reader of a driver-mapped line against its close: the real {@link MappedPage}
 * and {@link CompletionLine}, over {@link HeapDriver}, whose free writes {@link HeapDriver#FREED}.
 * The reader takes the line's segment (as a park does), reads the word through the line, then through
 * the segment it holds; each read gives the stored 42 or, once the line is closed, -1 ({@code LineClosed},
 * or {@link IllegalStateException} from the held segment). Forbidden: a read of freed memory
 * ({@code 0xDEAD} = 57005).
 */
@JCStressTest
@Description("Negative control: the host view has global scope, so a read races the free.")
@Outcome(id = "42, 42", expect = ACCEPTABLE, desc = "Both reads before the close.")
@Outcome(id = "42, -1", expect = ACCEPTABLE, desc = "The close came between the reads.")
@Outcome(id = "-1, 42", expect = ACCEPTABLE, desc = "Closed, but the held segment read before the host view closed.")
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "Both reads after the close began.")
@Outcome(expect = FORBIDDEN, desc = "A read of the freed page (57005: use after free).")
@State
public class MappedPageCloseNegativeControl {
    final MappedPage page = MappedPage.create(new HeapDriver(), "stress", LineOptions.defaults(), false);

    public MappedPageCloseNegativeControl() {
        page.line().store(Slot.of(0), 42);
    }

    @Actor
    public void reader(JJ_Result r) {
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

    @Actor
    public void closer() {
        page.line().close();
    }

    static long read(CompletionLine line) {
        try {
            return line.word(Slot.of(0));
        } catch (ReactorException closed) {
            return -1;
        }
    }
}
