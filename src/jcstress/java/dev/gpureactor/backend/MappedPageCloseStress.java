package dev.gpureactor.backend;

import dev.gpureactor.core.CompletionLine;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A reader of a driver-mapped line against its close: the real {@link MappedPage}
 * and {@link CompletionLine}, over {@link HeapDriver}, whose free writes {@link HeapDriver#FREED}.
 * The reader takes the line's segment (as a park does), reads the word through the line, then through
 * the segment it holds; each read gives the stored 42 or, once the line is closed, -1 ({@code LineClosed},
 * or {@link IllegalStateException} from the held segment). Forbidden: a read of freed memory
 * ({@code 0xDEAD} = 57005).
 */
@JCStressTest
@Description("Reading a mapped line vs. closing it: the page is freed only after the host view is closed.")
@Outcome(id = "42, 42", expect = ACCEPTABLE, desc = "Both reads before the close.")
@Outcome(id = "42, -1", expect = ACCEPTABLE, desc = "The close came between the reads.")
@Outcome(id = "-1, 42", expect = ACCEPTABLE, desc = "Closed, but the held segment read before the host view closed.")
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "Both reads after the close began.")
@Outcome(expect = FORBIDDEN, desc = "A read of the freed page (57005: use after free).")
@State
public class MappedPageCloseStress {
    final MappedPageCloseCase c = new MappedPageCloseCase();

    @Actor public void reader(JJ_Result r) { c.reader(r); }
    @Actor public void closer() { c.closer(); }
}
