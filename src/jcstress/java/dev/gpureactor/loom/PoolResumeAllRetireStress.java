package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link PoolAdmitRetireStress} with a parker's batch as the submitter: {@link CarrierPool#resumeAll}
 * admits both of its tasks with one fetch-and-add against the retiring CAS, so either both are
 * admitted and run before the carriers leave, or both are refused after they left. Same outcomes
 * ({@link JCStressMeta}); the family's negative control ({@link PoolAdmitRetireNegativeControl})
 * removes the retiring CAS that both rely on.
 */
@JCStressTest
@JCStressMeta(PoolAdmitRetireStress.class)
@Description("A batch's one admission vs retirement: admitted tasks run before the carriers leave, refused ones only after they left; they leave once.")
@State
public class PoolResumeAllRetireStress {
    final PoolAdmitRetireCase c = new PoolAdmitRetireCase(true, true); // the batch's one call

    @Actor public void carrier() { c.carrier(); }
    @Actor public void submitter() { c.submitter(); }
    @Arbiter public void arbiter(IIII_Result r) { c.arbiter(r); }
}
