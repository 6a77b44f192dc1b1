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
 * Publication, first hop: device → parker. The device writes its payload into off-heap memory with
 * plain stores, then stores the word with release ({@link CompletionLine#store}); the parker runs
 * one real turn ({@link LineParker#step}: acquire snapshot of the line, drain, scan, {@link GpuFuture#signal()})
 * and, if that woke the waiter, the readback runs on the same thread ({@link GpuFuture#join()} on a
 * READY future resolves it inline) and reads the payload with plain loads.
 *
 * <p>The second hop (parker → a joiner on another thread) is {@link PublicationToJoinerStress}; jcstress
 * 0.16 runs at most two actors on this machine's two CPUs, and happens-before is transitive.
 *
 * <p>Result: the readback's value, or -1 when the turn did not see the word yet.
 */
@JCStressTest
@Description("Device payload → release store of the word → the parker's acquire scan: a woken waiter's readback sees the payload.")
@Outcome(id = "42", expect = ACCEPTABLE, desc = "Woken, and the readback saw the payload.")
@Outcome(id = "-1", expect = ACCEPTABLE, desc = "The turn ran before the store: not woken yet.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: woken but the readback sees the old payload — the word was stored or scanned without release/acquire.")
@State
public class PublicationToParkerStress {
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment payload = arena.allocate(ValueLayout.JAVA_INT);
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final GpuFuture<Integer> waiter = Rig.future(line, 0, 1, () -> payload.get(ValueLayout.JAVA_INT, 0));

    public PublicationToParkerStress() {
        parker.inbox.register(waiter.lineWait);
        parker.step(false); // the parker holds the waiter
    }

    @Actor
    public void device() {
        payload.set(ValueLayout.JAVA_INT, 0, 42);
        line.store(Slot.of(0), 1);
    }

    @Actor
    public void parker(I_Result r) {
        parker.step(false);
        r.r1 = waiter.isDone() ? waiter.join() : -1;
    }
}
