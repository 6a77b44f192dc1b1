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
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The lost wakeup, waiter half (the Dekker pair): a waiter registers through the real protocol
 * ({@link ParkerInbox#registerAndRecheck}: inbox offer, wake, volatile re-check of the word) while
 * the device stores the word and the parker, having seen the store, runs one real turn of its loop
 * ({@link LineParker#step}: snapshot, drain, scan). Forbidden: the future still pending after both.
 *
 * <p>Why it holds: the offer (a CAS) and the re-check (a volatile load) are a sequentially
 * consistent store-then-load pair; the parker's side is "saw the store, then drained the inbox".
 * Either the drain finds the registration and the scan (over a snapshot that holds the store)
 * completes it, or the offer came after the drain, hence after the store, and the re-check sees it.
 *
 * <p>Modelling: jcstress 0.16 schedules at most as many actors as CPUs (2 here), so the device and
 * the parker share the second actor. In production the parker is another thread that observed the
 * store before it drains; on multi-copy-atomic hardware (x86-TSO, ARMv8) a store another core has
 * read is visible to every core. The full fence after the store stands for exactly that and nothing
 * more: without it the shared actor's own store could still sit in its store buffer while it
 * drains, which no separate parker thread can do. The parker's own ordering (snapshot before
 * drain) is tested by {@link StoreAfterRegistrationStress}; the plain-field counterpart of this
 * pair is {@link LostWakeupNegativeControl}.
 *
 * <p>Results: r1 the re-check saw the word (1/0), r2 the turn's answer ({@link Rig#code}: 3 for a park),
 * r3 the slot's word in the park's snapshot, r4 the future's state after both (0 pending, 1 completed, 2 other).
 */
@JCStressTest
@Description("Registration vs. store: the waiter's volatile re-check or the parker's scan completes the waiter.")
@Outcome(id = "1, 3, 1, 1", expect = ACCEPTABLE, desc = "The re-check saw the word (the parker's scan may have raced it; one signal won).")
@Outcome(id = "0, 3, 1, 1", expect = ACCEPTABLE, desc = "The re-check missed the word; the parker drained the registration and its scan completed it.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: lost wakeup — the re-check missed the word and the parker's drain missed the registration, "
                + "so a reached waiter stays pending while the parker parks on a line that already holds its word.")
@State
public class RegistrationRecheckStress {
    private final CompletionLine line = Rig.line();
    private final LineParker parker = Rig.parker(line);
    private final GpuFuture<Void> waiter = Rig.future(line, 0, 1, null);

    public RegistrationRecheckStress() {
        parker.inbox.register(Rig.future(line, 1, 1, null).lineWait); // a bystander on slot 1 keeps the parker parking on the line
        parker.step(false);
    }

    @Actor
    public void waiter(IIII_Result r) {
        r.r1 = parker.inbox.registerAndRecheck(waiter.lineWait) ? 1 : 0;
    }

    @Actor
    public void deviceThenParker(IIII_Result r) {
        line.store(Slot.of(0), 1);
        VarHandle.fullFence(); // the parker is another agent that saw the store: see the class comment
        int next = Rig.code(parker.step(false));
        r.r2 = next;
        r.r3 = next == 3 ? (int) parker.parkedOn(Slot.of(0)) : -1;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r4 = Rig.settled(waiter);
    }
}
