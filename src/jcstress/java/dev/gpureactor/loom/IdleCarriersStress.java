package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two idle carriers vs one submit, on the real {@link IdleCarriers}: carrier B is asleep (listed,
 * parked); carrier A announces itself idle and its re-check finds other work X (so A stays awake and
 * runs X); a submitter offers task T and signals once. The carriers are unstarted thread objects, so
 * unparks are no-ops; a claimed sleeper stands for a carrier woken.
 *
 * <p>Result: r1 = sleepers still unclaimed after both (B among them when 1). Forbidden: 1, T waits
 * behind A (busy with X) while B sleeps — the signal was spent on A, which was not asleep (issue 14,
 * item 10). The fix: a carrier whose withdrawal loses to a claim passes the signal on.
 */
@JCStressTest
@Description("Two idle carriers vs one submit: the submit's signal reaches the sleeping carrier, never only a carrier that found other work.")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "B was claimed: directly (A withdrew first or announced after), or through A's pass-on.")
@Outcome(expect = FORBIDDEN, desc = "Bug prevented: the signal for T was spent on A, busy with X, and B sleeps on: T waits behind a busy carrier.")
@State
public class IdleCarriersStress {
    final IdleCarriers idle;
    private final Thread a = Thread.ofPlatform().unstarted(() -> { });

    public IdleCarriersStress() { this(new IdleCarriers()); }

    IdleCarriersStress(IdleCarriers idle) {
        this.idle = idle;
        Thread b = Thread.ofPlatform().unstarted(() -> { });
        if (!idle.announce(b, () -> false)) throw new AssertionError("B found no work: it sleeps");
    }

    @Actor
    public void carrierFindsOtherWork() {
        idle.announce(a, () -> true); // the re-check sees X: A stays awake to run it
    }

    @Actor
    public void submitter() {
        idle.signal(); // after offering T, as SharedFifoCarriers.push does
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = idle.sleeping();
    }
}
