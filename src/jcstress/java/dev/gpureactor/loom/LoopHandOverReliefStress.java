package dev.gpureactor.loom;

import dev.gpureactor.parker.ParkerThread;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
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
 * The leader/follower hand-over vs. a registrar: the owner runs the real {@link ParkerHosting#handOver}
 * with no hosting announced (as {@code host} does while the lines have waits); a registrar runs the
 * real {@link ParkerInbox#register} (offer, arm, {@link ParkerHosting#claimRelief}, read {@code gone}).
 * With no announcement the registrar's claim must fail, so the loop is handed over once, to the
 * thread standing by. A shape guard, as {@code HostingOwnerStress}: it cannot fail while
 * {@code handOver} announces nothing; it fails if the leader/follower path ever announces hosting
 * (the registrar would then relieve too: a second hand-over starts a fresh thread, two owners).
 *
 * <p>Results: r1 the owner's hand-over found the standing-by thread (1) or started a fresh one (0);
 * r2 whether {@code thread} names the standing-by thread after both (1) or another (0).
 */
@JCStressTest
@Description("Leader/follower hand-over (no announcement) vs. a registrar's register (offer, claimRelief): one hand-over.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "One hand-over, to the thread standing by; the registrar claimed nothing.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: the registrar relieved an owner that had already handed the loop over: a second hand-over, two owners.")
@State
public class LoopHandOverReliefStress {
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final ParkerThread standing = new ParkerThread(parker, "jcstress-standby");
    private final GpuFuture<Void> waiter = Rig.future(line, 0, 1, null);
    private int found;

    public LoopHandOverReliefStress() {
        if (!parker.hosting.announceStandby(standing)) throw new IllegalStateException("no standby");
    }

    @Actor
    public void owner() {
        found = parker.hosting.handOver() ? 1 : 0;
    }

    @Actor
    public void registrar() {
        parker.inbox.register(waiter.lineWait);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = found;
        r.r2 = parker.inbox.loopThread() == standing ? 1 : 0;
    }
}
