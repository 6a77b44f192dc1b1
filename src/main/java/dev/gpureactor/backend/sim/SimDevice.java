package dev.gpureactor.backend.sim;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A simulated GPU: CPU threads that play streams and store into completion lines as a device
 * would. The default backend everywhere, and what the demo and the tests run on.
 *
 * <p>{@link #stream()} hands out streams eight to a line (one slot each), allocating lines as
 * needed; closing the device closes its streams, then its lines.
 */
public final class SimDevice implements AutoCloseable {
    private final boolean spin;
    private final List<CompletionLine> lines = new ArrayList<>();
    private final List<SimStream> streams = new ArrayList<>();
    private boolean closed;

    private SimDevice(boolean spin) { this.spin = spin; }

    /** {@return a device whose "work" sleeps in the OS (cheap on a shared machine)} */
    public static SimDevice open() { return new SimDevice(false); }

    /** {@return a device whose "work" spins, like a GPU that is busy rather than a CPU that sleeps} */
    public static SimDevice spinning() { return new SimDevice(true); }

    boolean spins() { return spin; }

    /** {@return a new stream on the next free slot, on a new line every eight streams} */
    public synchronized SimStream stream() {
        if (closed) throw new ReactorException(ErrorCode.Rejected, "sim device", "stream");
        int n = streams.size();
        if (n % CompletionLine.WORDS == 0) lines.add(CompletionLine.allocate());
        SimStream s = new SimStream(this, lines.getLast(), Slot.of(n % CompletionLine.WORDS));
        streams.add(s);
        return s;
    }

    /**
     * {@return a new stream on {@code slot} of {@code line} (a line the caller owns), numbering on from the slot's
     * current word}
     *
     * @param line the line
     * @param slot the slot
     */
    public synchronized SimStream stream(CompletionLine line, Slot slot) {
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(slot, "slot");
        if (closed) throw new ReactorException(ErrorCode.Rejected, "sim device", "stream");
        SimStream s = new SimStream(this, line, slot);
        streams.add(s);
        return s;
    }

    /** {@return the lines of this device's streams} */
    public synchronized List<CompletionLine> lines() { return List.copyOf(lines); }

    /** Stops the streams (no store can still be pending), then frees the lines. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        streams.forEach(SimStream::close);
        lines.forEach(CompletionLine::close);
    }
}
