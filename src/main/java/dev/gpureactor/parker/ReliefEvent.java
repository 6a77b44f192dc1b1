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
 * arrived, and the thread standing by took the line's loop. A guest's own next registration relieves
 * its host, so reliefs come as often as hosted wakes (thousands a second): the thread taking the loop
 * commits at most one event a second per parker, carrying the reliefs it stands for. A platform
 * thread commits it, never the relieving guest (docs/JFR.md, "Known"). On by default. An instant
 * event: nothing to threshold. No stack trace: the relief is always the same hand-over.
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
    @Label("Reliefs") @Description("Reliefs this event stands for: this one and those since the parker's last event") int reliefs;
    @Label("Threads Started") @Description("Of those, the reliefs that found no thread standing by and started one") int threadsStarted;

    static void emit(Reports reports, String line, int reliefs, int threadsStarted) {
        if (!TYPE.isEnabled()) return;
        ReliefEvent e = new ReliefEvent();
        e.line = line;
        e.reliefs = reliefs;
        e.threadsStarted = threadsStarted;
        reports.commit(e);
    }
}
