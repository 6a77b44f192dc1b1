package dev.gpureactor.core;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The deadline estimator under concurrent observations of one readback point: two parkers (or a
 * parker and a naive waiter) fold an exact residual of 100 µs and a late wake at 150 µs into the
 * same {@link PointTable} key at once.
 *
 * <p>Invariants checked: no observation is lost (two samples kept), the prediction is at most both
 * constraints (≤ the exact 100 µs, and ≤ half the late wake, 75 µs, since a late wake is censored
 * to {@code min(woke, predicted) / 2} and must never raise the prediction), and the sleep is never
 * above max_sleep (50 µs). The two orders give exactly: exact first → [100, 50] µs, prediction 50,
 * sleep 40; late first → [75, 100] µs, prediction 75, sleep min(65, 50) = 50.
 *
 * <p>Results: r1 samples kept, r2 prediction (ns), r3 the sleep asked for (ns).
 */
@JCStressTest
@Description("Concurrent Exact(100 us) and Late(150 us) into one PointTable key: no lost sample, late never raises, sleep capped.")
@Outcome(id = "2, 50000, 40000", expect = ACCEPTABLE, desc = "Exact folded first; the late wake censored to min(150, 100)/2 = 50 us.")
@Outcome(id = "2, 75000, 50000", expect = ACCEPTABLE, desc = "Late folded first (cold: 150/2 = 75 us); the sleep 65 us is capped at max_sleep 50 us.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: a lost observation (one sample), a late wake that raised the prediction above its censored bound, "
                + "or a sleep above max_sleep.")
@State
public class EstimatorStress {
    private static final DeadlinePlan PLAN = new DeadlinePlan(10_000, 20_000, 50_000, 8);

    private final PointTable<String> points = new PointTable<>();

    @Actor
    public void exact() {
        points.observe("kernel", PLAN, new dev.gpureactor.core.Outcome.Exact(100_000));
    }

    @Actor
    public void late() {
        points.observe("kernel", PLAN, new dev.gpureactor.core.Outcome.Late(150_000));
    }

    @Arbiter
    public void arbiter(JJJ_Result r) {
        PointEstimate e = points.estimate("kernel");
        r.r1 = e.sampleCount();
        r.r2 = e.predictedNanos().orElse(-1);
        r.r3 = points.sleepNanos("kernel", PLAN).orElse(-1);
    }
}
