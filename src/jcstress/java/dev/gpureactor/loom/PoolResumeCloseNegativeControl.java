package dev.gpureactor.loom;

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
 * {@link PoolResumeCloseStress} with the Executor route's line that tells a resume from a start
 * removed (every call is a start): a resume after close is rejected. Fails on purpose:
 * it shows {@code 0, 1}. Excluded from CI by name.
 */
@JCStressTest
@Description("Negative control of PoolResumeCloseStress: a route that takes every call as a start rejects live threads' resumes after close.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The resume came before the close.")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "The bug shows: a live thread's resume rejected after close.")
@Outcome(expect = FORBIDDEN, desc = "Another broken outcome.")
@State
public class PoolResumeCloseNegativeControl {
    private final PoolResumeCloseStress real = new PoolResumeCloseStress(false);

    @Actor
    public void resumer() { real.resumer(); }

    @Actor
    public void closer() { real.closer(); }

    @Arbiter
    public void arbiter(II_Result r) { real.arbiter(r); }
}
