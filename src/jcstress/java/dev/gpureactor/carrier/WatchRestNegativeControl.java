package dev.gpureactor.carrier;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link WatchRestStress} with the watch's second read of the pool taken out: it rests on what its last look
 * read, so an admission between that look and the announcement finds it not yet resting and wakes nobody. Fails
 * on purpose: it shows {@code 1, 1}. Excluded from CI by name.
 *
 * <p>It runs {@link WatchRestCase} and takes {@link WatchRestStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(WatchRestStress.class)
@Description("Negative control of WatchRestStress: a rest decided on the look's reading misses the admission.")
@State
public class WatchRestNegativeControl {
    final WatchRestCase c = new WatchRestCase(false); // the control: no second read

    @Actor public void rest(II_Result r) { c.rest(r); }
    @Actor public void admit() { c.admit(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
