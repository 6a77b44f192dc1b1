package dev.gpureactor.carrier;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR: a parker found the carriers backlogged (more virtual threads admitted than carriers running)
 * where its previous turn did not. Sampled at the flip, per parker, never per task, and at most one a
 * second per parker, carrying the flips it stands for: near its threshold a backlog flips hundreds
 * of times a second, and one event per flip would not be rare. On by default. An instant event:
 * nothing to threshold. No stack trace: it is always a parker's turn.
 */
@Name("dev.gpureactor.CarrierBacklog")
@Category({"dev.gpureactor"})
@Label("Carrier Backlog")
@Description("The carriers became backlogged: woken virtual threads queue; the parker neither spins nor hosts")
@Enabled(true)
@StackTrace(false)
public final class BacklogEvent extends Event {
    private static final EventType TYPE = EventType.getEventType(BacklogEvent.class);

    @Label("Line") @Description("The line whose parker saw the flip") String line;
    @Label("Admitted") @Description("Virtual threads admitted to the carriers, read just after the flip (it may already have fallen)") int admitted;
    @Label("Carriers") int carriers;
    @Label("Flips") @Description("Flips into a backlog this event stands for: this one and those since the parker's last event") int flips;

    /** {@return the event, filled and not yet committed, or null when it is off} The parker's reports commit it. */
    public static BacklogEvent of(String line, CarrierPool pool, int flips) {
        if (!TYPE.isEnabled()) return null;
        BacklogEvent e = new BacklogEvent();
        e.line = line;
        e.admitted = pool.admitted();
        e.carriers = pool.size();
        e.flips = flips;
        return e;
    }
}
