package dev.gpureactor.loom;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR: one device wait that ended, committed by the thread that settled it (the readback's joiner
 * for a wait with a readback, else the parker, a platform joiner, or the canceller).
 *
 * <p>Off by default, like the JDK's per-thread {@code jdk.VirtualThreadStart}: there is one per
 * wait, up to hundreds of thousands a second. Disabled it costs one field read ({@link #enabled()})
 * at each terminal move and at the signal, and allocates nothing. Timespans that are unknown
 * (a wait that never started, a wait without readback has no seen-to-running) are
 * {@link Long#MIN_VALUE}, which {@code jfr print} shows as N/A.
 */
@Name("dev.gpureactor.Wait")
@Category({"dev.gpureactor"})
@Label("GPU Wait")
@Description("A wait on device work ended: its descriptor, plan, predicted and actual completion, outcome")
@Enabled(false)
@StackTrace(false)
final class WaitEvent extends Event {
    /** Probed once (the event's registration): the enabled check reads a field of it, no allocation. */
    private static final EventType TYPE = EventType.getEventType(WaitEvent.class);

    @Label("Line") String line;
    @Label("Slot") int slot;
    @Label("Target") long target;
    @Label("Plan") String plan;
    @Label("Predicted") @Description("The estimator's sleep before the parker is awake for this wait; 0 while the point is cold")
    @Timespan long predicted;
    @Label("Completion") @Description("From the wait's start to the word seen reached, or to the failure or cancel")
    @Timespan long completion;
    @Label("Seen To Running") @Description("From the word seen reached to the readback running on a joiner")
    @Timespan long seenToRunning;
    @Label("Outcome") String outcome;
    @Label("Code") @Description("The coded failure's name; empty on success and for a readback's own exception")
    String code;

    /** One branch when disabled. */
    static boolean enabled() { return TYPE.isEnabled(); }

    /**
     * Commits the end of {@code w}; call only when {@link #enabled()}. {@code seenNanos}: when the word
     * was seen reached (0: unknown); {@code nowNanos}: when the readback began running, or the settle.
     */
    static void commit(LineWait w, String outcome, String code, long seenNanos, long nowNanos) {
        WaitEvent e = new WaitEvent();
        e.line = w.descriptor().line().name();
        e.slot = w.descriptor().slot().index();
        e.target = w.descriptor().target();
        e.plan = w.planLabel;
        boolean started = w.started();
        e.predicted = started ? w.wakeAtNanos - w.startNanos : Long.MIN_VALUE;
        long end = seenNanos != 0 ? seenNanos : nowNanos;
        e.completion = started ? end - w.startNanos : Long.MIN_VALUE;
        e.seenToRunning = seenNanos != 0 ? nowNanos - seenNanos : Long.MIN_VALUE;
        e.outcome = outcome;
        e.code = code;
        e.commit();
    }
}
