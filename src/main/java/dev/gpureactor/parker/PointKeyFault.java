package dev.gpureactor.parker;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Warning;
import dev.gpureactor.park.PortFault;

/**
 * A point key whose {@code hashCode} or {@code equals} threw, coded: the key is a user's object, and the estimator's
 * table runs those methods on whichever thread starts, settles or observes a wait (the caller, a parker, a joiner
 * running its plan). At a wait's start it refuses the wait; later it costs only the key's observations (warned once a
 * line watch, each time on a joiner running its plan), never the turn that met it, which would fail every wait of
 * its parker.
 */
public final class PointKeyFault {
    private PointKeyFault() { }

    /** {@return the refusal of a wait whose {@code key} threw {@code thrown} as the estimator read it} */
    public static ReactorException refused(Object key, Throwable thrown) {
        return new ReactorException(ErrorCode.InvalidArgument, thrown, args(key, thrown));
    }

    /** {@return the warning that {@code key} threw {@code thrown} as its waits' outcomes were observed, which are dropped} */
    public static Warning dropped(Object key, Throwable thrown) {
        return Warning.of(ErrorCode.InvalidArgument, args(key, thrown));
    }

    private static Object[] args(Object key, Throwable thrown) {
        // The key's class, not its toString: a key whose hashCode throws may throw there too.
        return new Object[]{"pointKey", key.getClass().getName(), "a key whose hashCode() and equals() answer, as a record's or a "
                + "String's", thrown.getClass().getName() + ": " + PortFault.messageOf(thrown)};
    }
}
