package dev.gpureactor.loom;

import dev.gpureactor.parker.ReactorControls;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
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
 * Negative control for {@link AwaitCloseStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same await and close, but the registrar does not re-read
 * {@code closed} after its parker is in the map ({@link ReactorControls#skipsClosedRecheck}), one
 * real line removed. A parker made after close took its snapshot is then stopped by nobody and its
 * wait stays pending: run {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=AwaitCloseNegativeControl} and expect BUILD FAILURE with its count.
 *
 * <p>Results: as {@link AwaitCloseStress}. The arbiter then closes the stranded parker, so its
 * thread does not outlive the sample.
 */
@JCStressTest
@Description("Negative control: a registrar that does not re-read closed after its parker is in the map vs. close.")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "Failed ShutDown: by the early check or by close's snapshot.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: the future stays PENDING for ever, its parker made after close took its snapshot and stopped by nobody.")
@State
public class AwaitCloseNegativeControl {
    final CompletionLine line = Rig.line();
    final GpuReactor reactor = AwaitCloseStress.reactor(new ReactorControls(true)); // the control: the registrar skips re-reading closed
    GpuFuture<Long> waiter;

    @Actor
    public void registrar() {
        waiter = reactor.await(new MemoryDescriptor(line, Slot.of(0), 1), Rig.NEVER, () -> 1L);
    }

    @Actor
    public void closer() {
        reactor.close();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = AwaitCloseStress.outcome(waiter);
        LineParker p = reactor.parkerOf(line);
        r.r2 = p != null && p.isLive() ? 1 : 0;
        if (p != null) p.inbox.close(new dev.gpureactor.core.ReactorException(dev.gpureactor.core.ErrorCode.ShutDown, "jcstress cleanup"));
    }
}
