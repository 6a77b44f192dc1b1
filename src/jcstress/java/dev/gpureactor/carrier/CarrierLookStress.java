package dev.gpureactor.carrier;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The carrier watch's look against a carrier whose JDK-compensated block ends during it ({@link CarrierWatch#look}
 * has the argument): the look reads the JDK's compensation before the evidence that the carrier is blocked and again
 * after it, and the carrier's tasks again after it, so a block that ended while the look read is never compensated as
 * one that goes on. {@link CarrierLookCase} has the setup; the family's negative control
 * ({@link CarrierLookNegativeControl}) reads the compensation once, after the evidence, and the tasks once, before it.
 *
 * <p>Result: r1 = 1 when the look began a compensation.
 */
@JCStressTest
@Description("The watch's look vs a carrier whose JDK-compensated pipe read ends during it: no compensation begins.")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "The look saw the JDK's compensation, or the carrier moving or done: nothing begins.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: a spare carrier for a block that was the JDK's and is over (BlockingCarriersTest's pipe readers, under load).")
@State
public class CarrierLookStress {
    final CarrierLookCase c = new CarrierLookCase(true);

    @Actor public void carrier() { c.carrier(); }
    @Actor public void watch(I_Result r) { c.watch(r); }
}
