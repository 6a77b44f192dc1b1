package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
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
 * Parker sleep vs. registration: the parker, out of waiters, runs the real sleep decision
 * ({@link ParkerInbox#announceSleep}: set {@code sleeping}, re-check the inbox) while a waiter runs
 * the real {@link ParkerInbox#register} (inbox offer, then {@code wake}: if {@code sleeping}, CAS it
 * clear and unpark the parker). The parker here has no thread, so the unpark itself is a no-op; the
 * flag stands for it: a wake that CASed {@code sleeping} clear has unparked the parker, and
 * {@link java.util.concurrent.locks.LockSupport#unpark} before the park leaves a permit.
 *
 * <p>Results: r1 the parker decided to park (1) or saw the registration (0); r2 {@code sleeping}
 * still set after both (1: no wake claimed it).
 */
@JCStressTest
@Description("Parker sleep vs. registration: the parker sees the registration, or the registrar's wake is pending.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The parker's re-check saw the registration: it turns instead of sleeping.")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The parker parks, but the registrar's wake claimed the flag and unparked it (a permit is pending).")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: the parker sleeps in the OS with a registration it did not see and no wake pending — "
                + "the waiter (and the whole line) waits forever.")
@State
public class ParkerSleepStress {
    private final LineParker parker = Rig.parker(Rig.line());
    private final GpuFuture<Void> waiter = Rig.future(parker.line(), 0, 1, null);

    @Actor
    public void parker(II_Result r) {
        r.r1 = parker.inbox.announceSleep() ? 1 : 0;
    }

    @Actor
    public void registrar() {
        parker.inbox.register(waiter.lineWait);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = parker.inbox.isSleeping() ? 1 : 0;
    }
}
