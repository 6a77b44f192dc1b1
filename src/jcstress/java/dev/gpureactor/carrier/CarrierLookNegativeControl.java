package dev.gpureactor.carrier;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * {@link CarrierLookStress} with the look's reads in their earlier order: the JDK's compensation read once, after
 * the evidence, and the carrier's tasks once, before it. A carrier that ends its block and its task between those
 * reads looks blocked and uncompensated. Fails on purpose: it shows {@code 1}. Excluded from CI by name.
 *
 * <p>It runs {@link CarrierLookCase} and takes {@link CarrierLookStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(CarrierLookStress.class)
@Description("Negative control of CarrierLookStress: the excuses read once compensate a block that ended during the look.")
@State
public class CarrierLookNegativeControl {
    final CarrierLookCase c = new CarrierLookCase(false); // the control: the earlier order

    @Actor public void carrier() { c.carrier(); }
    @Actor public void watch(I_Result r) { c.watch(r); }
}
