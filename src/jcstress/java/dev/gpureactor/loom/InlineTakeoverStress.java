package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * One watcher at a time: a platform thread joins a wait that is registered with its line's parker,
 * and takes the plan over (the std host). Its first query reports the stream's failure, and only
 * then does the late store land (the port stores into the line after deciding to fail, so the store
 * comes after the query in that thread's order, as the simulated device's "store into failure"
 * does). Concurrently the parker runs one real turn of its loop ({@link LineParker#step}).
 *
 * <p>Why it holds: the joiner withdraws the registration (an offer to the parker's removals) before
 * its first query. A turn whose snapshot saw the late store acquired it, and the store is ordered
 * after the withdrawal, so the turn's drain, which follows its snapshot, sees the withdrawal and the
 * scan no longer holds the future. The parker therefore completes the wait only from a word stored
 * before the joiner's query, that is, when the word spoke first.
 *
 * <p>Results: r1 the future's state after both (0 pending, 1 completed, 2 other), r2 what the
 * joiner's {@code join()} got (1 the value, 2 the backend's coded failure, 3 anything else).
 */
@JCStressTest
@Description("A platform joiner's inline plan vs. the parker's turn: a store after the reported failure never completes the wait.")
@Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "The query, the error authority, failed the wait; the late store changed nothing.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: two watchers — the parker completed the wait from a store that came after the query had "
                + "reported the failure, so the joiner's failure lost to it (or the joiner saw another outcome).")
@State
public class InlineTakeoverStress {
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final GpuFuture<Integer> waiter = Rig.future(line, 0, 1, Rig.failingThenStoring(line, 0, 1), Rig.stdHost(), () -> 42);
    private int joined;

    public InlineTakeoverStress() {
        Rig.registerAsReactorDoes(parker, waiter);
        parker.step(false); // the parker holds the registration
    }

    @Actor
    public void platformJoiner() {
        try {
            joined = waiter.join() == 42 ? 1 : 3;
        } catch (ReactorException e) {
            joined = e.code() == ErrorCode.Backend ? 2 : 3;
        }
    }

    @Actor
    public void parker() {
        parker.step(false);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = Rig.settled(waiter);
        r.r2 = joined;
    }
}
