package dev.gpureactor.loom;

import dev.gpureactor.core.Warning;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A reactor's warnings: the first {@link GpuReactor#WARNINGS_KEPT} kept in order, all counted, each
 * passed to the guarded sink.
 */
final class ReactorWarnings implements Consumer<Warning> {
    private final List<Warning> kept = new CopyOnWriteArrayList<>();
    private final AtomicLong raised = new AtomicLong();
    /**
     * The user's sink, or the default log ({@link LoggedWarnings}), guarded ({@link GuardedSink}): nothing
     * it throws reaches a parker, a plan runner or the reactor's close.
     */
    private final GuardedSink sink;

    ReactorWarnings(Consumer<Warning> sink) {
        this.sink = new GuardedSink(sink);
    }

    @Override
    public void accept(Warning w) {
        if (raised.getAndIncrement() < GpuReactor.WARNINGS_KEPT) kept.add(w);
        sink.accept(w);
    }

    /** A copy of the kept warnings. */
    List<Warning> kept() { return List.copyOf(kept); }

    /** How many were raised, kept or not. */
    long raised() { return raised.get(); }

    /** How many times the sink threw. */
    long sinkFailures() { return sink.failures(); }
}
