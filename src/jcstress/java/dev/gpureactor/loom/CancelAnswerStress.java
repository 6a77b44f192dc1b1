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

/** Two cancels race on one pending GpuFuture: exactly one answers true, as FutureTask's (see {@link CancelAnswerCase}). */
@JCStressTest
@Description("Two concurrent cancels of one GpuFuture: only the winner answers true; the loser sees it done.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "One cancel won and said true; the other said false and saw the future done.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: both (or neither) said true, or a cancel returned while the future was not yet done.")
@State
public class CancelAnswerStress {
    final CancelAnswerCase c = new CancelAnswerCase();

    @Actor public void a() { c.first(); }
    @Actor public void b() { c.second(); }
    @Arbiter public void check(II_Result r) { c.arbiter(r); }
}
