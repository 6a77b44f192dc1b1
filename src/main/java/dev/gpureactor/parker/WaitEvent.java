package dev.gpureactor.parker;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;
import jdk.jfr.Timespan;

/**
 * JFR: one device wait that ended, committed by the thread that settled it (the readback's joiner
 * for a wait with a readback, else the parker, a platform joiner, or the canceller). The event spans
 * the wait: it begins when the wait starts (in {@link LineWait}'s constructor, on the awaiting
 * thread) and ends at the commit, so its JFR duration is the wait's and JFR's own threshold applies.
 *
 * <p>On by default above {@value #THRESHOLD}, as the JDK's blocking events are in its
 * {@code default.jfc} ({@code jdk.SocketRead}, {@code jdk.FileRead}, {@code jdk.ThreadPark},
 * {@code jdk.JavaMonitorEnter}: 20 ms): a default recording holds the slow waits, the ones a user
 * investigates, and not the hundreds of thousands a second of ordinary microsecond-to-millisecond
 * ones. {@code +dev.gpureactor.Wait#threshold=0ms} in {@code -XX:StartFlightRecording} (the {@code +}
 * adds a setting the .jfc lacks) records every wait. No stack trace: the committing thread's stack
 * says nothing about the wait, and a stack walk per slow wait is not free.
 *
 * <p>Without a recording it costs one field read ({@link #enabled()}) at the start, at each terminal
 * move and at the signal, and allocates nothing. With one, each wait allocates its event at the start
 * (the threshold is only known at the end) and a wait below the threshold commits nothing. Timespans
 * that are unknown (a wait that never started, a wait without readback has no seen-to-running) are
 * {@link Long#MIN_VALUE}, which {@code jfr print} shows as N/A.
 */
@Name("dev.gpureactor.Wait")
@Category({"dev.gpureactor"})
@Label("GPU Wait")
@Description("A wait on device work ended: its descriptor, plan, predicted and actual completion, outcome")
@Enabled(true)
@Threshold(WaitEvent.THRESHOLD)
@StackTrace(false)
public final class WaitEvent extends Event {
    /** The default threshold: the JDK's for its blocking events in {@code default.jfc}. */
    static final String THRESHOLD = "20 ms";
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
    public static boolean enabled() { return TYPE.isEnabled(); }

    /** A begun event for a wait starting now, or null while no recording has the event enabled. */
    static WaitEvent start() {
        if (!TYPE.isEnabled()) return null;
        WaitEvent e = new WaitEvent();
        e.begin();
        return e;
    }

    /**
     * Commits the end of {@code w} if its event was begun and the wait lasted at least the recording's
     * threshold; call only when {@link #enabled()}. {@code seenNanos}: when the word was seen reached
     * (0: unknown); {@code nowNanos}: when the readback began running, or the settle.
     */
    public static void commit(LineWait w, String outcome, String code, long seenNanos, long nowNanos) {
        WaitEvent e = w.jfr;
        if (e == null) return; // no recording had it on when the wait started
        e.end();
        if (!e.shouldCommit()) return; // below the threshold: nothing to fill in
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
        w.reports.commit(e);
    }
}
