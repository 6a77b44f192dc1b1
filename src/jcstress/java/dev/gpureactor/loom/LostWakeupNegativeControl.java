package dev.gpureactor.loom;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Negative control for {@link RegistrationRecheckStress}, never run in CI (the default
 * {@code jcstress.filter} excludes {@code NegativeControl}): the same register-then-recheck vs.
 * store-then-drain pair with plain fields instead of the protocol's CAS / volatile / fenced
 * accesses. Nothing orders either thread's store before its load, so both may miss: the lost
 * wakeup the real protocol forbids. On x86 (TSO) the store buffer is the only reordering that
 * can produce it, and it does.
 *
 * <p>The both-missed outcome is graded {@code FORBIDDEN}, as in the real test, so a run that shows
 * it fails: the control proves both that this machine and JIT produce the reordering (so the real
 * test's zero count means something) and that the gate turns a forbidden outcome into a failed
 * build. Run it with {@code mvn -B -ntp verify -Pjcstress -Djcstress.filter=LostWakeupNegativeControl}
 * and expect BUILD FAILURE with the count.
 *
 * <p>Results: r1 the waiter's re-check saw the word, r2 the parker's drain saw the registration.
 */
@JCStressTest
@Description("Negative control: register-then-recheck vs. store-then-drain with plain fields (no ordering).")
@Outcome(id = {"1, 0", "0, 1", "1, 1"}, expect = ACCEPTABLE, desc = "At least one side saw the other: no wake lost.")
@Outcome(id = "0, 0", expect = FORBIDDEN,
        desc = "Bug prevented (by the real protocol's ordering, absent here): lost wakeup — both sides missed each other.")
@State
public class LostWakeupNegativeControl {
    private boolean registered; // plain: stands for the inbox offer
    private long word;          // plain: stands for the line's word

    @Actor
    public void waiter(II_Result r) {
        registered = true;
        r.r1 = word == 1 ? 1 : 0;
    }

    @Actor
    public void deviceThenParker(II_Result r) {
        word = 1;
        r.r2 = registered ? 1 : 0;
    }
}
