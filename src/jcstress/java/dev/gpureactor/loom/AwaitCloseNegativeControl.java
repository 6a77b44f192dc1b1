package dev.gpureactor.loom;

import dev.gpureactor.parker.ReactorControls;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Negative control for {@link AwaitCloseStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same await and close, but the registrar does not re-read
 * {@code closed} after its parker is in the map ({@link ReactorControls#skipsClosedRecheck}), one
 * real line removed. A parker made after close took its snapshot is then stopped by nobody and its
 * wait stays pending: run {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=AwaitCloseNegativeControl} and expect BUILD FAILURE with its count.
 *
 * <p>Results: as {@link AwaitCloseStress}. It runs {@link AwaitCloseCase} and takes {@link AwaitCloseStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(AwaitCloseStress.class)
@Description("Negative control: a registrar that does not re-read closed after its parker is in the map vs. close.")
@State
public class AwaitCloseNegativeControl {
    final AwaitCloseCase c = new AwaitCloseCase(new ReactorControls(true)); // the control: the registrar skips re-reading closed

    @Actor public void registrar() { c.registrar(); }
    @Actor public void closer() { c.closer(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
