package dev.gpureactor.carrier;

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
 * The carrier watch's rest against the admission that ends the quiet ({@link WatchRest} has the ordering
 * argument): the watch writes {@code resting} and then reads the pool's ctl word; the admitter adds to the ctl
 * word and then, having found no task admitted, reads {@code resting}. One of them sees the other, so a watch
 * never parks with no timeout while a task it may have to compensate is admitted and nobody will wake it.
 * {@link WatchRestCase} has the setup; the family's negative control ({@link WatchRestNegativeControl}) rests
 * on the look's reading without reading the pool again.
 *
 * <p>Result: r1 = 1 when the watch would park; r2 = 1 when it still rests after both (its wake unclaimed).
 */
@JCStressTest
@Description("The watch's rest vs the admission that ends the quiet: a resting watch is always woken.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The watch saw the admitted task: no park (its wake may have been claimed too).")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The watch parks, and the admitter claimed its wake: it unparks it.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: the watch parks for ever while a task is admitted, so a carrier blocked in it is never compensated (a deadlock on one carrier).")
@State
public class WatchRestStress {
    final WatchRestCase c = new WatchRestCase(true);

    @Actor public void rest(II_Result r) { c.rest(r); }
    @Actor public void admit() { c.admit(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
