package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link PoolResumeCloseStress} with the Executor route's line that tells a resume from a start
 * removed (every call is a start): a resume after close is rejected. Fails on purpose:
 * it shows {@code 0, 1}. Excluded from CI by name.
 *
 * <p>It runs {@link PoolResumeCloseCase} and takes {@link PoolResumeCloseStress}'s outcomes ({@link JCStressMeta}): every outcome but the accepted ones is forbidden, the one the bug shows included.
 */
@JCStressTest
@JCStressMeta(PoolResumeCloseStress.class)
@Description("Negative control of PoolResumeCloseStress: a route that takes every call as a start rejects live threads' resumes after close.")
@State
public class PoolResumeCloseNegativeControl {
    final PoolResumeCloseCase c = new PoolResumeCloseCase(false); // the control: every call is a start

    @Actor public void resumer() { c.resumer(); }
    @Actor public void closer() { c.closer(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
