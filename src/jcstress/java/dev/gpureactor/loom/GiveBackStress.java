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
 * A wait given back to its parker: a platform joiner took the plan over (its withdrawal of the
 * parker's registration is in the parker's inbox), then was interrupted and gives the still-pending
 * wait back ({@link NaiveRunner#leave}), while the parker runs one real turn
 * ({@link dev.gpureactor.parker.LineParker#step}), which drains the withdrawal.
 *
 * <p>Why it holds: the joiner first takes its withdrawal back ({@code ConcurrentLinkedQueue.remove}
 * and the drain's poll CAS the same item: one of them has it). Taken back, the parker never dropped
 * the wait. Not taken back, the drain polled it, and removes the wait before it takes in any later
 * registration (each drain takes registrations before removals, and this one is past its
 * registrations), so the joiner's new registration is held after the removal. Registering again
 * without taking the withdrawal back lets one drain take in the new registration (held already:
 * nothing) and then the withdrawal, which drops the wait: pending, and watched by nobody.
 *
 * <p>Results: r1 how many waits the parker holds on the slot after both and a last turn, r2 the
 * reactor's registration count.
 */
@JCStressTest
@Description("A runner that gives its wait back vs. the parker's drain of its withdrawal: the parker holds the wait after both.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The parker holds the wait once and counts it once, whichever came first.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: the new registration was taken in before the old withdrawal, which then dropped the wait "
                + "(a pending wait nobody watches), or the count lost or doubled it.")
@State
public class GiveBackStress {
    final GiveBackCase c = new GiveBackCase();

    @Actor public void joiner() { c.joiner(); }
    @Actor public void parker() { c.parker(); }
    @Arbiter public void arbiter(II_Result r) { c.arbiter(r); }
}
