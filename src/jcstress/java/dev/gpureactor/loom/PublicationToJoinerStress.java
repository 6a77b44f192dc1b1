package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Slot;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Publication, second hop: parker → joiner. One actor is the device and the parker (payload with
 * plain stores, release store of the word, then a real turn {@link LineParker#step} whose scan calls
 * {@link GpuFuture#signal()}); the other is a joiner on another thread that checks the future
 * ({@link GpuFuture#isDone()}, an acquire load of its state) and, once it is done, joins it: the
 * readback runs on the joiner and reads the payload with plain loads.
 *
 * <p>The first hop (device → parker) is {@link PublicationToParkerStress}; here it is program order
 * on one thread. The chain device payload → word (release) → parker (acquire) → state (CAS) →
 * joiner (acquire) → payload is the design's happens-before chain, tested hop by hop.
 *
 * <p>Result: the readback's value on the joiner, or -1 when the future was not done yet.
 */
@JCStressTest
@Description("Parker's signal → joiner: a joiner that sees the future done sees the device's payload.")
@Outcome(id = "42", expect = ACCEPTABLE, desc = "Done, and the joiner's readback saw the payload.")
@Outcome(id = "-1", expect = ACCEPTABLE, desc = "Not done yet when the joiner looked.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: the joiner is woken but sees the old payload — the future's state was published without release/acquire.")
@State
public class PublicationToJoinerStress {
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment payload = arena.allocate(ValueLayout.JAVA_INT);
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final GpuFuture<Integer> waiter = Rig.future(line, 0, 1, () -> payload.get(ValueLayout.JAVA_INT, 0));

    public PublicationToJoinerStress() {
        parker.inbox.register(waiter.lineWait);
        parker.step(false); // the parker holds the waiter
    }

    @Actor
    public void deviceThenParker() {
        payload.set(ValueLayout.JAVA_INT, 0, 42);
        line.store(Slot.of(0), 1);
        parker.step(false);
    }

    @Actor
    public void joiner(I_Result r) {
        r.r1 = waiter.isDone() ? waiter.join() : -1;
    }
}
