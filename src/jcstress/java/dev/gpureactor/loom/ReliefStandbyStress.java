package dev.gpureactor.loom;

import dev.gpureactor.parker.ParkerHooks;
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
 * A relieved host coming to stand by vs. the registrar's relief still handing the loop over
 * ({@link dev.gpureactor.parker.ParkerHosting#announceAfterRelief} has the argument): the relief claims the loop,
 * then takes the thread standing by; the host, finding itself relieved, waits until the loop is written as another
 * thread's before it announces itself, so it never finds the slot still holding the thread the relief is taking.
 * {@link ReliefStandbyCase} has the setup; the family's negative control ({@link ReliefStandbyNegativeControl})
 * announces at once.
 *
 * <p>Results: r1 the host kept the loop (0), stands by (1) or left (2); r2 = 1 when a thread stands by after both.
 */
@JCStressTest
@Description("A relieved host stands by vs. its relief's hand-over: the parker always keeps a thread standing by.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The host ended its hosting first: the registrar claimed nothing; the standby still stands by.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Relieved: the standby took the loop and the host stands by in its place.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: the host left while its relief took the standby: no thread stands by, and the parker never hosts again.")
@State
public class ReliefStandbyStress {
    final ReliefStandbyCase c = new ReliefStandbyCase(ParkerHooks.NONE);

    @Actor public void host() { c.host(); }
    @Actor public void registrar() { c.registrar(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
