package dev.gpureactor.parker;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Negative control for {@link ReporterLeaveStress}, never run in CI: the same test ({@link ReporterLeaveCase}) and
 * outcomes, with the reporter's one line removed: the leaving thread does not look at the queue again, so a report
 * offered after its last poll, whose post saw it still running, is left with no thread.
 */
@JCStressTest
@JCStressMeta(ReporterLeaveStress.class)
@Description("Negative control: the reporter's thread leaves without looking at the queue again.")
@State
public class ReporterLeaveNegativeControl {
    final ReporterLeaveCase c = new ReporterLeaveCase(false); // the one line removed

    @Actor public void post() { c.post(); }
    @Actor public void leave() { c.leave(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
