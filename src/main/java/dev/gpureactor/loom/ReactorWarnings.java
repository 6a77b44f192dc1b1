package dev.gpureactor.loom;

import dev.gpureactor.carrier.CarrierPool;
import dev.gpureactor.core.Warning;
import dev.gpureactor.parker.Reporter;
import dev.gpureactor.parker.Reports;
import jdk.jfr.Event;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A reactor's warnings and its parkers' JFR events: the first {@link GpuReactor#WARNINGS_KEPT} warnings kept in
 * order, all counted, each passed to the guarded sink. Raised on a user's thread (building, closing, a joiner
 * running a plan), a warning reaches the sink there and then; raised on one of the reactor's own threads (a
 * parker, a thread standing by, a carrier's lent turn), it goes through the {@link Reporter}, so a sink or a
 * log that blocks holds no parker. The parkers' events go the same way for another reason: a parker that
 * hosted a virtual thread loses its next event when it commits it itself (JDK-8391824, docs/JFR.md).
 */
final class ReactorWarnings implements Reports {
    private final List<Warning> kept = new CopyOnWriteArrayList<>();
    private final AtomicLong raised = new AtomicLong();
    /** Warnings dropped because {@link Reporter#MAX_PENDING} reports waited for a slow sink. */
    private final AtomicLong dropped = new AtomicLong();
    /**
     * The user's sink, or the default log ({@link LoggedWarnings}), guarded ({@link GuardedSink}): nothing
     * it throws reaches a parker, a plan runner or the reactor's close.
     */
    private final GuardedSink sink;
    private final Reporter reporter;

    ReactorWarnings(Consumer<Warning> sink, String reactor) {
        this.sink = new GuardedSink(sink);
        this.reporter = new Reporter("gar-reporter-" + reactor);
    }

    @Override
    public void accept(Warning w) {
        if (raised.getAndIncrement() < GpuReactor.WARNINGS_KEPT) kept.add(w);
        if (!Reporter.onOwnThread()) sink.accept(w);
        else if (!reporter.post(() -> sink.accept(w))) dropped.incrementAndGet();
    }

    /**
     * Commits {@code e} here on a user's thread; from one of the reactor's own, the reporter commits it. A timed event
     * keeps the times it was given; an instant one takes the reporter's commit as its time (microseconds later, or
     * later while a blocked sink holds the reporter).
     */
    @Override
    public void commit(Event e) {
        if (Reporter.onOwnThread()) reporter.post(e::commit);
        else e.commit();
    }

    /** At the reactor's close: the sink gets what was raised before, and the reporter's thread leaves, within {@link CarrierPool#CLOSE_GRACE}. */
    void close() {
        long deadline = System.nanoTime() + CarrierPool.CLOSE_GRACE.toNanos();
        reporter.flush(CarrierPool.CLOSE_GRACE);
        reporter.close();
        reporter.awaitLeft(deadline);
    }

    /** A copy of the kept warnings. */
    List<Warning> kept() { return List.copyOf(kept); }

    /** How many were raised, kept or not. */
    long raised() { return raised.get(); }

    /** How many warnings the sink missed: it threw, or too many waited for it. */
    long sinkFailures() { return sink.failures() + dropped.get(); }
}
