package dev.gpureactor.parker;

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
 * JFR: a parker's timed sleep that the OS ended more than {@link #LATE_NANOS} after it asked (its
 * waits woke late through no fault of the estimator). Thresholded in code, so it is rare, and on by
 * default like the JDK's thresholded {@code jdk.VirtualThreadPinned}. An instant event (no JFR
 * duration), so JFR's own threshold does not apply: the lateness is the {@code late} field. No stack
 * trace: it is always the parker's sleep loop.
 */
@Name("dev.gpureactor.ParkerLate")
@Category({"dev.gpureactor"})
@Label("Parker Woke Late")
@Description("A parker's timed sleep ended more than 1 ms after it asked")
@Enabled(true)
@StackTrace(false)
public final class ParkerLateEvent extends Event {
    /** Below this a late wake is the OS's ordinary slack, not worth a record. */
    public static final long LATE_NANOS = 1_000_000;
    private static final EventType TYPE = EventType.getEventType(ParkerLateEvent.class);

    @Label("Line") String line;
    @Label("Late") @Timespan long late;
    @Label("Waiting") @Description("Waits the parker held") int waiting;

    /** Called after every timed sleep: two compares when on time, one field read when disabled. */
    public static void check(Reports reports, String line, long askedAt, long wokeAt, int waiting) {
        long late = wokeAt - askedAt;
        if (late <= LATE_NANOS || !TYPE.isEnabled()) return;
        ParkerLateEvent e = new ParkerLateEvent();
        e.line = line;
        e.late = late;
        e.waiting = waiting;
        reports.commit(e);
    }
}
