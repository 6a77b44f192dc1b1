package dev.gpureactor.loom;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.ParkerThread;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The shared body of {@link ReliefStandbyStress} and its negative control: a hosting thread whose guest has just
 * parked, relieved meanwhile by a registrar, comes to stand by. The real {@link dev.gpureactor.parker.ParkerHosting}
 * and {@link dev.gpureactor.parker.ParkerInbox}; the threads are the actors, the {@link ParkerThread}s unstarted.
 *
 * <p>Setup: the loop is the host's (handed to it as to any thread standing by), a second thread stands by, and the
 * host has announced its hosting. Actors: the host ends its hosting ({@code endHosting}) and, relieved, announces
 * itself standing by ({@code announceAfterRelief}); a registrar registers a wait (the real {@code register}: offer,
 * {@code claimRelief}, and on a won claim the hand-over to the thread standing by). The arbiter reads whether a
 * thread stands by after both.
 */
final class ReliefStandbyCase {
    private final CompletionLine line = Rig.line();
    private final LineParker parker;
    private final ParkerThread host, standing;
    private final GpuFuture<Void> waiter = Rig.future(line, 0, 1, null);
    private int hosted;

    ReliefStandbyCase(ParkerHooks hooks) {
        parker = Rig.parker(line, hooks);
        host = new ParkerThread(parker, "jcstress-host");
        standing = new ParkerThread(parker, "jcstress-standby");
        if (!parker.hosting.announceStandby(host) || !parker.hosting.handOver()) throw new IllegalStateException("no owner");
        if (!parker.hosting.announceStandby(standing)) throw new IllegalStateException("no standby");
        parker.hosting.announceHosting(host);
    }

    /** Actor: the host, its guest parked. r1 = 0: it kept the loop; 1: relieved, it stands by; 2: relieved, it left. */
    void host() {
        if (parker.hosting.endHosting(host)) hosted = 0;
        else hosted = parker.hosting.announceAfterRelief(host) ? 1 : 2;
    }

    /** Actor: a registrar on a carrier. */
    void registrar() { parker.inbox.register(waiter.lineWait); }

    /** r1: the host's answer; r2 = 1 when a thread stands by after both. */
    void arbiter(II_Result r) {
        r.r1 = hosted;
        r.r2 = parker.hosting.hasStandby() ? 1 : 0;
    }
}
