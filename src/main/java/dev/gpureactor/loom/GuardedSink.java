package dev.gpureactor.loom;

import dev.gpureactor.core.Warning;

import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * A user's warnings sink as the reactor holds it: whatever the sink throws stays with the sink
 * (counted, then dropped). Warnings are raised on parker threads in the middle of a turn, by the
 * carrier pool's close, by a thread running a plan: a sink that throws there (a logger whose
 * appender is down) would fail every wait of a parker with {@code ParkerDied}, or stop a close
 * half-way. Applied once, where the reactor takes the sink in, so no call site needs a guard.
 */
final class GuardedSink implements Consumer<Warning> {
    private final Consumer<Warning> sink;
    private final LongAdder failures = new LongAdder();

    GuardedSink(Consumer<Warning> sink) {
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    @Override
    public void accept(Warning w) {
        try {
            sink.accept(w);
        } catch (Throwable t) {
            // The warning is kept and counted by the reactor all the same; only the sink missed it.
            failures.increment();
        }
    }

    /** How many times the sink threw. */
    long failures() { return failures.sum(); }
}
