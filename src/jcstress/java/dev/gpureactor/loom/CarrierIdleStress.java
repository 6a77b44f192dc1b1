package dev.gpureactor.loom;

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
 * Carrier pool: a task submitted through the real {@link CarrierPool#execute} (queue offer, then
 * {@link IdleCarriers#signal}: pop one sleeper and unpark it) vs. the pool's only carrier going idle
 * through the real handshake ({@link CarrierPool#announceIdle}: push itself on
 * {@link IdleCarriers}, re-check the queue). The carrier is an unstarted thread object, so the
 * unpark is a no-op; whether the submitter popped it stands for the unpark, which leaves a permit
 * when it comes before the park.
 *
 * <p>Results: r1 the carrier decided to park (1) or saw the task (0); r2 the carrier still listed
 * asleep after both (1: no signal popped it).
 */
@JCStressTest
@Description("Task submission vs. a carrier going idle: the carrier sees the task, or the submitter's signal wakes it.")
@Outcome(id = "0, [01]", expect = ACCEPTABLE, desc = "The carrier's re-check saw the task: it runs it instead of sleeping (a spare signal costs one look).")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The carrier parks, but the submitter's signal popped it and unparked it (a permit is pending).")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: a submitted task is left unrun while every carrier sleeps — the carrier parks unsignalled with the task queued.")
@State
public class CarrierIdleStress {
    private final CarrierPool pool = CarrierPool.withoutCarriers();
    private final Thread carrier = Thread.ofPlatform().unstarted(() -> { });

    @Actor
    public void carrier(II_Result r) {
        r.r1 = pool.announceIdle(carrier) ? 1 : 0;
    }

    @Actor
    public void submitter() {
        pool.execute(() -> { });
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = pool.sleepingCarriers();
    }
}
