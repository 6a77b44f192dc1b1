package dev.gpureactor.parker;

import dev.gpureactor.carrier.BacklogEvent;
import dev.gpureactor.carrier.CarrierPool;

/**
 * A parker's frequent JFR events, {@link BacklogEvent} and {@link ReliefEvent}: each sampled at most
 * once a second ({@link EventSampler}), carrying the occurrences it stands for, and what the samplers
 * hold back is carried by a last event when the loop's owner leaves. Filled by the loop's owner and
 * committed through the reactor's {@link Reports}. Confined to the loop's owner: plain fields that move with the loop.
 */
final class ParkerEvents {
    private final String line;
    private final CarrierPool carriers;
    /** Where the events go: the reactor's commit them from its reporter thread, not from this one (JDK-8391824). */
    private final Reports reports;
    private final EventSampler backlog = new EventSampler(System.nanoTime()), relief = new EventSampler(System.nanoTime());
    /** The reliefs since the last relief event that found no thread standing by and started one. */
    private int reliefStarts;

    ParkerEvents(String line, CarrierPool carriers, Reports reports) {
        this.line = line;
        this.carriers = carriers;
        this.reports = reports;
    }

    /** The carriers became backlogged where the previous turn found them not. */
    void backlogFlipped(long now) {
        int flips = backlog.occurred(now);
        if (flips > 0) backlog(flips);
    }

    /**
     * A relief handed this thread the loop: emitted by the new owner, so the guest whose registration
     * relieved the host commits nothing. {@code stoodBy}: the thread stood by (false: started for it).
     */
    void reliefTaken(boolean stoodBy) {
        if (!stoodBy) reliefStarts++;
        int reliefs = relief.occurred(System.nanoTime());
        if (reliefs == 0) return;
        ReliefEvent.emit(reports, line, reliefs, reliefStarts);
        reliefStarts = 0;
    }

    private void backlog(int flips) {
        BacklogEvent e = BacklogEvent.of(line, carriers, flips);
        if (e != null) reports.commit(e);
    }

    /** The loop's owner leaves the parker (closed, or died): a last event carries what was held back. Never throws. */
    void leave() {
        try {
            int flips = backlog.takeUncarried(), reliefs = relief.takeUncarried();
            if (flips > 0) backlog(flips);
            if (reliefs > 0) ReliefEvent.emit(reports, line, reliefs, reliefStarts);
        } catch (RuntimeException | Error e) {
            // An event not recorded is all it costs: the thread is leaving and the parker's waits are settled.
        }
    }
}
