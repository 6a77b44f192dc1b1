package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link PoolResumeAllRetireStress} with the retiring CAS removed (as {@link PoolAdmitRetireNegativeControl}
 * removes it): a batch admitted after the carriers left is stranded. Fails on purpose: it shows
 * {@code 1, 1, 1, 1}. Excluded from CI by name. Outcomes from {@link PoolAdmitRetireStress} ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(PoolAdmitRetireStress.class)
@Description("Negative control of PoolResumeAllRetireStress: without the retiring CAS a batch is admitted after the carriers left.")
@State
public class PoolResumeAllRetireNegativeControl {
    final PoolAdmitRetireCase c = new PoolAdmitRetireCase(false, true); // the control: the retiring CAS removed

    @Actor public void carrier() { c.carrier(); }
    @Actor public void submitter() { c.submitter(); }
    @Arbiter public void arbiter(IIII_Result r) { c.arbiter(r); }
}
