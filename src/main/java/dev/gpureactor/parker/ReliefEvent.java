package dev.gpureactor.parker;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR: a parker running a woken virtual thread (hosting) was relieved: a registration or close
 * arrived, and the thread standing by took the line's loop. At most one per hosted guest, and a
 * relief already hands a thread over, so it is on by default. An instant event: nothing to threshold.
 * No stack trace: the relief is always the same hand-over.
 */
@Name("dev.gpureactor.HostingRelief")
@Category({"dev.gpureactor"})
@Label("Hosting Relief")
@Description("A hosting parker was relieved; the thread standing by took the line's loop")
@Enabled(true)
@StackTrace(false)
public final class ReliefEvent extends Event {
    private static final EventType TYPE = EventType.getEventType(ReliefEvent.class);

    @Label("Line") String line;
    @Label("Standing By") @Description("Whether a thread stood by (false: a new one was started)") boolean standingBy;

    static void emit(String line, boolean standingBy) {
        if (!TYPE.isEnabled()) return;
        ReliefEvent e = new ReliefEvent();
        e.line = line;
        e.standingBy = standingBy;
        e.commit();
    }
}
