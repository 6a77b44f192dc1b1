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
 * A parker over several lines parks on line A only (B has no watch yet) while a waiter registers on
 * line B through the real protocol ({@link ParkerInbox#registerAndRecheck}: offer, wake, the park
 * handshake, volatile re-check) and then the device stores B's word. The parker runs one real turn
 * ({@link LineParker#step}) and, if it parks, the real announcement ({@link LineParker#armFor},
 * {@link ParkerInbox#announcePark}: publish the armed lines, set {@code parking}, re-check the inbox).
 *
 * <p>B's store cannot end a park that does not arm B: only the parker's re-check (it then turns
 * again) or the registrar's (it sees the park, finds B not armed, and ends it) can. Why it holds:
 * the offer then the read of {@code parking}, against the write of {@code parking} then the read of
 * the inbox, both sequentially consistent: one sees the other.
 *
 * <p>Results: r1 the turn ({@link Rig#code}: 0 again, 3 park); r2 whether the announcement let the
 * parker park (1), or -1 without a park; r3 with a park, whether something ends it (1: a registrar
 * cleared {@code parking} and unparked, or an armed line's word differs from its snapshot), else
 * -1; r4 the waiter's state after both (0 pending, 1 completed, 2 other).
 */
@JCStressTest
@Description("Register on an unwatched line B, then store B, vs. a parker turn and park on line A: the park ends or never starts.")
@Outcome(id = "0, -1, -1, 0", expect = ACCEPTABLE,
        desc = "The turn drained the registration: B's watch is new, the turn answers Again, the next turn snapshots B first.")
@Outcome(id = "3, 0, -1, 0", expect = ACCEPTABLE, desc = "The parker's re-check saw the registration: it turns again instead of parking.")
@Outcome(id = "3, 1, 1, 0", expect = ACCEPTABLE, desc = "The registrar saw the park on A alone and ended it.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: lost wakeup on a line the park does not arm: the parker parks on A, the registration on B waits in the "
                + "inbox and B's store ends nothing (until the park's bound, or for ever under an unbounded wait).")
@State
public class UnarmedLineStress {
    final UnarmedLineCase c = new UnarmedLineCase();

    @Actor public void waiterThenDevice() { c.waiterThenDevice(); }
    @Actor public void parker(IIII_Result r) { c.parker(r); }
    @Arbiter public void arbiter(IIII_Result r) { c.arbiter(r); }
}
