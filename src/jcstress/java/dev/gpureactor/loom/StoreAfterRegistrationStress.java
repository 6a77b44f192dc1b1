package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Slot;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The lost wakeup, parker half: a waiter registers through the real protocol
 * ({@link ParkerInbox#registerAndRecheck}: inbox offer, wake, volatile re-check), its re-check
 * misses, and then the device's release store lands; concurrently the parker runs one real turn of
 * its loop ({@link LineParker#step}).
 *
 * <p>The store comes after the re-check in the first actor's program order: this is the case the
 * re-check cannot cover, so only the parker can. The parker holds a bystander waiter on another
 * slot, so its turn ends in a bounded park on the line, which returns as soon as a word differs
 * from the turn's snapshot. After both, the waiter is completed by the turn's scan, or still pending
 * with a snapshot from before the store (the store ends the park and the next turn completes it).
 *
 * <p>Why it holds: the turn snapshots the line (acquire) before it drains the inbox. A snapshot
 * that saw the store therefore also sees the registration made before it (release store → acquire
 * load), so the scan, which reads the snapshot, completes the waiter.
 *
 * <p>Results: r1 the turn's answer ({@link Rig#code}: 3 for a park), r2 the slot's word in the park's
 * snapshot, r3 the future's state after both (0 pending, 1 completed, 2 other).
 */
@JCStressTest
@Description("Store after the waiter's re-check vs. a parker turn: the scan completes the waiter, or the park's snapshot predates the store.")
@Outcome(id = "3, 1, 1", expect = ACCEPTABLE, desc = "The turn saw the store and its scan completed the waiter.")
@Outcome(id = "3, 0, 0", expect = ACCEPTABLE,
        desc = "Still pending, but the park's snapshot predates the store: the store ends the park and the next turn completes the waiter.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: lost wakeup — the waiter is pending and the parker parks on a snapshot that already holds its word, "
                + "so nothing ends the park before its bound (or, with a hardware park, its deadline).")
@State
public class StoreAfterRegistrationStress {
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final GpuFuture<Void> waiter = Rig.future(line, 0, 1, null);

    public StoreAfterRegistrationStress() {
        parker.inbox.register(Rig.future(line, 1, 1, null).lineWait); // a bystander on slot 1 keeps the parker parking on the line
        parker.step(false);
    }

    @Actor
    public void waiterThenDevice() {
        parker.inbox.registerAndRecheck(waiter.lineWait); // misses: the word is still 0
        line.store(Slot.of(0), 1);
    }

    @Actor
    public void parker(III_Result r) {
        int next = Rig.code(parker.step(false));
        r.r1 = next;
        r.r2 = next == 3 ? (int) parker.parkedOn(Slot.of(0)) : -1;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = Rig.settled(waiter);
    }
}
