package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * One parker over lines A and B: line B closes while a registrar registers on it, and A stays live
 * with a wait of its own. The registrar runs {@link ParkerInbox#register} (offer, the park
 * handshake, read {@code gone}/{@code closing}); the closer runs the real
 * {@code CompletionLine.close} (write {@code closed}, then the listener, which posts the notice,
 * {@link ParkerInbox#closeLine}, as the reactor's does when the parker keeps other lines), and then
 * the parker's turn it wakes ({@link LineParker#step}). The arbiter plays the loop on: one turn for
 * the registration's wake, and more while a turn answers {@code Again}.
 *
 * <p>Why it holds: a watch whose line is closed is failed and dropped, by the notice or at the next
 * turn's snapshot (the line reads as closed); a registration drained before the close sits in B's
 * watch and fails with it, one drained after is routed into a new watch of the closed line, which
 * the turn it makes answers {@code Again}, and the next turn drops. Only B's watch is dropped.
 *
 * <p>Results: r1 B's wait (0 pending, 1 completed, 2 failed LineClosed, 3 other), r2 A's wait (same
 * codes), r3 lines the parker still watches.
 */
@JCStressTest
@Description("Register on line B vs. B's close, one parker over A and B: B's wait fails LineClosed, A's stays, the parker watches A alone.")
@Outcome(id = "2, 0, 1", expect = ACCEPTABLE, desc = "B's wait failed LineClosed (in B's watch, or routed after the close); A's untouched.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: a registration stranded on a closed line (pending, held by no watch or by one nobody drops), "
                + "or A's waits failed by B's close.")
@State
public class LineCloseRegisterStress {
    final LineCloseRegisterCase c = new LineCloseRegisterCase();

    @Actor public void registrar() { c.registrar(); }
    @Actor public void closerThenParker() { c.closerThenParker(); }
    @Arbiter public void arbiter(III_Result r) { c.arbiter(r); }
}
