package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link PoolAdmitRetireStress} with the retiring CAS removed (the carriers retire on any update that
 * leaves the word {@code CLOSED}; the retired bit is never set): a fetch-and-add after the retirement
 * is admitted, and its task is stranded. Fails on purpose: it shows {@code 1, 1, 1, 1}. Excluded from CI by name.
 */
@JCStressTest
@Description("Negative control of PoolAdmitRetireStress: without the retiring CAS a task is admitted after the carriers left.")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "Admitted before the retirement.")
@Outcome(id = "1, 1, 1, 1", expect = FORBIDDEN, desc = "The bug shows: admitted after the carriers left (stranded).")
@Outcome(expect = FORBIDDEN, desc = "Another broken outcome.")
@State
public class PoolAdmitRetireNegativeControl {
    private final PoolAdmitRetireStress real = new PoolAdmitRetireStress(false);

    @Actor
    public void carrier() { real.carrier(); }

    @Actor
    public void submitter() { real.submitter(); }

    @Arbiter
    public void arbiter(IIII_Result r) { real.arbiter(r); }
}
