package dev.gpureactor.parker;

import dev.gpureactor.core.Warning;
import jdk.jfr.Event;

import java.util.function.Consumer;

/**
 * Where a parker's coded warnings and JFR events go. The reactor's ({@code ReactorWarnings}) delivers both
 * off the reactor's own threads through its {@link Reporter}: a warnings sink that blocks must not hold a
 * parker, and a parker that hosted a virtual thread must not commit JFR events itself (on JDK 25 the first
 * one after a guest committed an event of its own is lost, JDK-8391824; docs/JFR.md). A lambda, as tests
 * give, takes the warnings and commits the events in place.
 */
@FunctionalInterface
public interface Reports extends Consumer<Warning> {
    /** Drops the warnings and commits the events in place: a wait made outside a reactor, a joiner's own event. */
    Reports IN_PLACE = w -> { };

    /**
     * Commits {@code e}, filled and enabled: here, unless the reactor's reports deliver it from another thread.
     *
     * @param e the event, not yet committed
     */
    default void commit(Event e) { e.commit(); }
}
