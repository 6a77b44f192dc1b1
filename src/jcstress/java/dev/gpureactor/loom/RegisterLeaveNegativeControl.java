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
 * Negative control for {@link RegisterLeaveStress}, never run in CI (the default filter excludes
 * {@code NegativeControl}): the same registrar and leaving parker, but the registrar skips its
 * read of {@code gone} after the offer ({@link Rig#SKIPS_GONE}), one real line
 * removed. An offer that lands after the leaving thread's drain is then seen by nobody, and the
 * forbidden outcome appears: run {@code mvn -B -ntp verify -Pjcstress
 * -Djcstress.filter=RegisterLeaveNegativeControl} and expect BUILD FAILURE with its count.
 *
 * <p>Results: r1 the future after both (0 pending, 1 completed, 2 failed); r2 the inbox after both.
 */
@JCStressTest
@Description("Negative control: a registrar that does not read gone after its offer vs. leave.")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "Failed, by the leaving parker's drain or by its registrar.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: a stranded registration: still pending, in the inbox of a parker that left; its joiner waits for ever.")
@State
public class RegisterLeaveNegativeControl {
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line, Rig.SKIPS_GONE); // the registrar no longer reads gone after its offer
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
