package dev.gpureactor.loom;

import dev.gpureactor.parker.Turn;
import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.Slot;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The body of {@link UnarmedLineStress} and of {@link UnarmedLineNegativeControl}, written once: the
 * control differs only by the one real line it removes ({@link Rig#SKIPS_PARKING}).
 */
final class UnarmedLineCase {
    final CompletionLine a = Rig.line();
    final CompletionLine b = Rig.line();
    final LineParker parker;
    final GpuFuture<Void> waiter = Rig.future(b, 0, 1, null);

    /** The test's case: as the library builds it. */
    UnarmedLineCase() {
        this(ParkerHooks.NONE);
    }

    /** A negative control's case: {@code hooks} changes its one line. */
    UnarmedLineCase(ParkerHooks hooks) {
        parker = Rig.parker(a, hooks);
        parker.inbox.register(Rig.future(a, 1, 1, null).lineWait); // a bystander on A keeps the parker parking on A
        parker.step(false);
    }

    void waiterThenDevice() {
        parker.inbox.registerAndRecheck(waiter.lineWait); // misses: B's word is still 0
        b.store(Slot.of(0), 1);
    }

    void parker(IIII_Result r) {
        Turn t = parker.step(false);
        r.r1 = Rig.code(t);
        r.r2 = t instanceof Turn.Park ? (parker.inbox.announcePark(parker.armFor()) ? 1 : 0) : -1;
    }

    void arbiter(IIII_Result r) {
        r.r3 = r.r2 == 1 ? (!parker.inbox.isParking() || parker.inbox.armedParkWouldEnd() ? 1 : 0) : -1;
        r.r4 = Rig.settled(waiter);
    }
}
