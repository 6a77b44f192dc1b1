package dev.gpureactor.parker;

import dev.gpureactor.core.ReactorException;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR: a backstop query said a stream failed (or threw), and the parker failed the slot's waits with
 * the coded error. Rare and important, so on by default (as the JDK's {@code jdk.JavaErrorThrow}).
 * An instant event: nothing to threshold. No stack trace: the thread is the parker or the joiner that
 * queried the port, and the coded error names the line and slot.
 */
@Name("dev.gpureactor.PortFailure")
@Category({"dev.gpureactor"})
@Label("Port Failure")
@Description("A completion port reported a failed stream; the slot's waits failed with the coded error")
@Enabled(true)
@StackTrace(false)
public final class PortFailureEvent extends Event {
    private static final EventType TYPE = EventType.getEventType(PortFailureEvent.class);

    @Label("Line") String line;
    @Label("Slot") int slot;
    @Label("Waits Failed") int waits;
    @Label("Code") String code;
    @Label("Message") String message;
    @Label("Cause") @Description("The cause's class and message, or empty") String cause;

    public static void emit(Reports reports, String line, int slot, int waits, ReactorException error) {
        if (!TYPE.isEnabled()) return;
        PortFailureEvent e = new PortFailureEvent();
        e.line = line;
        e.slot = slot;
        e.waits = waits;
        e.code = error.code().name();
        e.message = error.getMessage();
        Throwable c = error.getCause();
        e.cause = c == null ? "" : c.getClass().getName() + ": " + c.getMessage();
        reports.commit(e);
    }
}
