package dev.gpureactor.parker;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;

import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A parker thread's death, made to finish when the heap runs out. An {@link OutOfMemoryError} can
 * strike again in the code that handles the first, and a death stopped half-way strands what it
 * should end: the waits held stay pending, the parker still reads live (so the line's new waits go
 * to it and nobody watches them), its standby thread stays parked and the reactor's close times out.
 * So the steps go in the order of what must not be lost:
 * <ol>
 *   <li>the exception the waits fail with, which falls back to one made with the parker when
 *       describing the death itself runs out of memory ({@link #of});</li>
 *   <li>the count, one add, and the warning, before any wait fails (a joiner that sees
 *       {@code ParkerDied} sees both); the warning allocates most, so under a full heap it may be
 *       lost ({@link #warn}), and nothing else with it;</li>
 *   <li>the leaving ({@link ParkerInbox#leave}: mark the parker gone, fail every wait held and
 *       offered, wake the standby), tried again after an {@code OutOfMemoryError}, as the JDK tries
 *       a virtual thread's resume again; each of its steps may run twice ({@link #leave}).</li>
 * </ol>
 */
final class ParkerDeath {
    /** The JDK's pause before it submits a virtual thread's resume again after an OutOfMemoryError. */
    private static final long RETRY_PAUSE_NANOS = 100_000_000L;
    /** About ten seconds of tries; a heap still full then ends the thread with the error. */
    private static final int LEAVE_TRIES = 100;

    private final String name;
    /** The death told without allocating: its text says why it says so little. */
    private final ReactorException untold;

    ParkerDeath(String name) {
        this.name = name;
        this.untold = new ReactorException(ErrorCode.ParkerDied, name, "an Error, with no memory left to describe it");
    }

    /** The failure of a thread's waits for its death by {@code e} (null: its loop ended otherwise); never throws. */
    ReactorException of(Throwable e) {
        try {
            return e == null ? new ReactorException(ErrorCode.ParkerDied, name, "its loop ended")
                    : new ReactorException(ErrorCode.ParkerDied, e, name, e.toString());
        } catch (OutOfMemoryError | StackOverflowError x) {
            return untold;
        }
    }

    /** Warns of the death {@code why}; a heap too full to say it loses the warning alone (the count stands). */
    static void warn(Consumer<Warning> warnings, ReactorException why) {
        try {
            warnings.accept(Warning.of(ErrorCode.ParkerDied, why.args().get(0),
                    why.args().get(1) + " (thread ended; a new parker starts on the next registration)"));
        } catch (OutOfMemoryError | StackOverflowError e) {
            // nothing: the waits come first
        }
    }

    /**
     * Leaves: {@code parker.inbox.leave(why)}, tried again after each {@link OutOfMemoryError} (the failing
     * of the waits and the wake of the standby allocate nothing themselves, but a wait's completion
     * stage and a woken virtual thread's resume may). Safe to repeat: each wait is taken out and
     * counted before it fails ({@link LineWatch#failAll}), and the rest of the leaving is idempotent.
     */
    static void leave(LineParker parker, ReactorException why, ParkerHooks hooks) {
        for (int tries = 1; ; tries++) {
            try {
                hooks.beforeLeaving(parker);
                parker.inbox.leave(why);
                return;
            } catch (OutOfMemoryError e) {
                if (tries == LEAVE_TRIES) throw e;
                LockSupport.parkNanos(RETRY_PAUSE_NANOS);
            }
        }
    }
}
