package dev.gpureactor.parker;

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
 * A parker's post against the reporter's delivering thread leaving (the real {@link Reporter}'s offer, claim and
 * leave). Why it holds: the post writes the queue, then reads {@code running}; the leaving thread writes
 * {@code running} false, then reads the queue; all volatile, so one sees the other, and one CAS decides who runs.
 *
 * <p>Results: r1 1 when the post starts a delivering thread, r2 1 when the old one left.
 */
@JCStressTest
@Description("Reporter: a post vs. its delivering thread leaving; the report always has a thread to deliver it.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The thread left first; the post starts a new one.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The post saw the thread running; the thread saw the report and goes on.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: the thread left and the post started none (0, 1): a warning stranded in the queue until the next post; or two threads deliver (1, 0).")
@State
public class ReporterLeaveStress {
    final ReporterLeaveCase c = new ReporterLeaveCase(true);

    @Actor public void post() { c.post(); }
    @Actor public void leave() { c.leave(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
