package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Hosting vs. a registration: a parker about to run a woken virtual thread on its own thread
 * ({@link ParkerHosting#announceHosting}: announce, then re-check the inbox) races a registrar on the
 * same line ({@link ParkerInbox#offer}, then {@link ParkerHosting#claimRelief}), both the real methods.
 *
 * <p>Why it holds: the parker writes {@code hosting} and then reads the inbox; the registrar
 * offers and then reads {@code hosting}. Both pairs are volatile (sequentially consistent), so
 * either the parker sees the registration and does not host, or the registrar sees the
 * announcement and takes the loop for another thread.
 *
 * <p>Results: r1 the parker would host (1) or declined (0); r2 the registrar relieved it (1) or
 * not (0).
 */
@JCStressTest
@Description("Announce hosting then re-check the inbox vs. offer then claim relief: a registration is never left unwatched behind a guest.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The parker saw the registration and keeps watching the line itself.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Both saw each other: the parker declines, and the loop moves to a relief thread.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The parker hosts; the registrar relieved it, so another thread watches the line.")
@Outcome(id = "1, 0", expect = FORBIDDEN,
        desc = "Bug prevented: a stranded registration — the parker runs a guest without having seen it, and nobody relieved it, "
                + "so the wait is unwatched for as long as the guest runs (for ever, if it never parks).")
@State
public class HostingReliefStress {
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final GpuFuture<Void> waiter = Rig.future(line, 0, 1, null);

    @Actor
    public void parker(II_Result r) {
        r.r1 = parker.hosting.announceHosting(Thread.currentThread()) ? 1 : 0;
    }

    @Actor
    public void registrar(II_Result r) {
        parker.inbox.offer(waiter.lineWait);
        r.r2 = parker.hosting.claimRelief() ? 1 : 0;
    }
}
