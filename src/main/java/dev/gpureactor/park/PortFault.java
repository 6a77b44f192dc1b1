package dev.gpureactor.park;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

/**
 * What a port call threw, as the coded failure that ends the waits the port answers for: one form for
 * the parker's backstop query and for a thread running a plan itself. A port's exception or error is
 * the port's failure and ends only its own waits ({@link ErrorCode#Backend}, naming the call and
 * carrying what it threw; a throwable already coded keeps its code). Any throwable, an {@code Error}
 * included, as {@code FutureTask} and {@code CompletableFuture} take whatever a task throws as its
 * outcome: a port's stack overflow is the port's, and must not fail the other lines' waits. A checked
 * exception a port throws undeclared (a "sneaky throw", a Kotlin or Scala port) is the port's failure as well:
 * the calls are caught as {@code Throwable}.
 */
public final class PortFault {
    private PortFault() { }

    /**
     * {@return the coded failure for {@code thrown}, thrown by the port's {@code call}}
     *
     * @param call the port method that threw ({@code query}, {@code park}, {@code arm}, {@code block})
     * @param thrown what it threw
     */
    public static ReactorException coded(String call, Throwable thrown) {
        if (thrown instanceof ReactorException coded) return coded;
        return new ReactorException(ErrorCode.Backend, thrown, "port", call, -1, thrown.getClass().getSimpleName(), messageOf(thrown));
    }

    /**
     * {@return {@code thrown}'s message, or, where its {@code getMessage()} throws in turn, a note naming what that
     * threw} A user's exception is the user's code: the failure it ends must be coded whatever its message does.
     *
     * @param thrown a throwable from a user's code (a port, a callback's executor)
     */
    public static String messageOf(Throwable thrown) {
        try {
            return String.valueOf(thrown.getMessage());
        } catch (Throwable t) {
            return "(its getMessage() threw " + t.getClass().getName() + ")";
        }
    }
}
