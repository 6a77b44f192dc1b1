package dev.gpureactor.loom;

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
 * {@link GpuReactor#await} (the registration path: {@code parkerFor} puts a started parker in the
 * map, {@code registerAndRecheck}, then the re-read of {@code closed}) vs {@link GpuReactor#close}
 * (write {@code closed}, then snapshot and stop the map's parkers), on a real reactor per sample:
 * the JDK's default scheduler (no carrier pool, so no carrier threads) and a real parker thread,
 * started by the registration when it comes first. The wait's word is never stored and its port is
 * never done, so only the close can end it.
 *
 * <p>Results: r1 = the future after both (0 pending, 1 completed, 2 failed ShutDown, 3 anything
 * else); r2 = a live parker is left in the reactor's map (1) or not (0).
 */
@JCStressTest
@Description("Reactor await vs close: the wait fails ShutDown and no parker outlives the reactor, whoever comes first.")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "Failed ShutDown: by the early check, by close's snapshot, or by the registrar's re-check.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: the future stays PENDING for ever, its parker made after close took its snapshot and stopped by nobody.")
@State
public class AwaitCloseStress {
    final AwaitCloseCase c = new AwaitCloseCase();

    @Actor public void registrar() { c.registrar(); }
    @Actor public void closer() { c.closer(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
