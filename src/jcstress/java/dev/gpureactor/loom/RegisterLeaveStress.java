package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
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
 * A registration vs. the parker leaving for good, both the real methods: the registrar runs
 * {@link ParkerInbox#register} (offer to the inbox, then read {@code gone}; if set, take its own
 * entry back and fail it), the leaving thread {@link ParkerInbox#leave} (publish {@code gone}, then
 * drain the inbox, failing what it finds).
 *
 * <p>Why it holds: the offer and the read of {@code gone} are the registrar's half of a Dekker
 * pair, the write of {@code gone} and the drain the leaver's; both are sequentially consistent
 * (volatile and the queue's CASes), so either the drain finds the entry or the registrar sees
 * {@code gone}. Both seeing each other is fine: the entry is taken once ({@code inbox.remove} vs.
 * {@code poll}), and a future fails once (CAS).
 *
 * <p>Results: r1 the future after both (0 pending, 1 completed, 2 failed); r2 the inbox after both
 * (entries left).
 */
@JCStressTest
@Description("Register (offer, then read gone) vs. leave (publish gone, then drain the inbox): no registration stranded.")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "Failed, by the leaving parker's drain or by its registrar.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: a stranded registration: still pending, in the inbox of a parker that left; its joiner waits for ever.")
@State
public class RegisterLeaveStress {
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final GpuFuture<Void> waiter = Rig.future(line, 0, 1, null);
    private final ReactorException why = new ReactorException(ErrorCode.ShutDown, "jcstress");

    @Actor
    public void registrar() {
        parker.inbox.register(waiter.lineWait);
    }

    @Actor
    public void leaving() {
        parker.inbox.leave(why);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = Rig.settled(waiter);
        r.r2 = parker.inbox.inboxSize();
    }
}
