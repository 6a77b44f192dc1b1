package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link PoolAdmitRetireStress} with the retiring CAS removed (the carriers retire on any update that
 * leaves the word {@code CLOSED}; the retired bit is never set): a fetch-and-add after the retirement
 * is admitted, and its task is stranded. Fails on purpose: it shows {@code 1, 1, 1, 1}. Excluded from CI by name.
 *
 * <p>It runs {@link PoolAdmitRetireCase} and takes {@link PoolAdmitRetireStress}'s outcomes ({@link JCStressMeta}): every outcome but the accepted ones is forbidden, the one the bug shows included.
 */
@JCStressTest
@JCStressMeta(PoolAdmitRetireStress.class)
@Description("Negative control of PoolAdmitRetireStress: without the retiring CAS a task is admitted after the carriers left.")
@State
public class PoolAdmitRetireNegativeControl {
    final PoolAdmitRetireCase c = new PoolAdmitRetireCase(false, false); // the control: the retiring CAS removed

    @Actor public void carrier() { c.carrier(); }
    @Actor public void submitter() { c.submitter(); }
    @Arbiter public void arbiter(IIII_Result r) { c.arbiter(r); }
}
