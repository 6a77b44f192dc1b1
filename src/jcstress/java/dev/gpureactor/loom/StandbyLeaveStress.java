package dev.gpureactor.loom;

import dev.gpureactor.parker.ParkerThread;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A relieved parker thread standing by vs. the parker leaving for good: the standing-by thread
 * publishes itself ({@link ParkerHosting#announceStandby}) and then reads {@code gone}
 * ({@link ParkerInbox#isDead}), as {@code standBy} does before it parks; the leaving thread runs
 * the real {@link ParkerInbox#leave} (publish {@code gone}, then take the standing-by thread to
 * wake it).
 *
 * <p>Results: r1 the standing-by thread would park (1: announced and saw the parker live) or not
 * (0); r2 the leaving thread took a standing-by thread to wake (1) or found none (0).
 */
@JCStressTest
@Description("Stand by (publish, then read gone) vs. leave (publish gone, then take the standing-by thread): no thread parks for ever.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "It parks, and the leaving thread wakes it (it then reads gone and ends).")
@Outcome(id = {"0, 0", "0, 1"}, expect = ACCEPTABLE, desc = "It saw gone before parking and ends at once.")
@Outcome(id = "1, 0", expect = FORBIDDEN,
        desc = "Bug prevented: a leaked thread — it parks believing the parker live, and the leaving thread did not see it to wake it.")
@State
public class StandbyLeaveStress {
    private final LineParker parker = Rig.parker(Rig.line());
    private final ParkerThread standing = new ParkerThread(parker, "jcstress-standby");
    private final ReactorException why = new ReactorException(ErrorCode.ShutDown, "jcstress");

    @Actor
    public void standingBy(II_Result r) {
        r.r1 = parker.hosting.announceStandby(standing) && !parker.inbox.isDead() ? 1 : 0;
    }

    @Actor
    public void leaving(II_Result r) {
        r.r2 = parker.inbox.leave(why) ? 1 : 0;
    }
}
