package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * One owner of a line's loop: a hosting thread whose guest just parked ends its hosting
 * ({@link ParkerHosting#endHosting}) while a registrar claims relief ({@link ParkerHosting#claimRelief}),
 * the real methods. Exactly one of them must own the loop afterwards.
 *
 * <p>Results: r1 the hosting thread keeps the loop (1) or was relieved (0); r2 the registrar took it
 * (1) or not (0).
 */
@JCStressTest
@Description("End hosting vs. claim relief: exactly one thread owns the line's loop.")
@Outcome(id = {"1, 0", "0, 1"}, expect = ACCEPTABLE, desc = "One owner: the old thread goes on, or a relief thread takes over.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: two threads running one parker loop over its unsynchronised slot sets, or none (every wait of the line unwatched).")
@State
public class HostingOwnerStress {
    private final LineParker parker = Rig.parker(Rig.line());
    private final Object host = new Object(); // stands for the hosting ParkerThread

    public HostingOwnerStress() {
        parker.hosting.announceHosting(host);
    }

    @Actor
    public void hostingThread(II_Result r) {
        r.r1 = parker.hosting.endHosting(host) ? 1 : 0;
    }

    @Actor
    public void registrar(II_Result r) {
        r.r2 = parker.hosting.claimRelief() ? 1 : 0;
    }
}
