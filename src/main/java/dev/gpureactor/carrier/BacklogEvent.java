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
 * JFR: a parker found the carriers backlogged (more virtual threads admitted than carriers) where
 * its previous turn did not. Sampled at the flip, per parker, never per task, so it is on by default.
 * An instant event: nothing to threshold. No stack trace: it is always a parker's turn.
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

    public static void emit(String line, CarrierPool pool) {
        if (!TYPE.isEnabled()) return;
        BacklogEvent e = new BacklogEvent();
        e.line = line;
        e.admitted = pool.admitted();
        e.carriers = pool.size();
        e.commit();
    }
}
