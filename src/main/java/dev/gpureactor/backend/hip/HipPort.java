package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.DriverPort;
import dev.gpureactor.backend.WordPark;
import dev.gpureactor.core.Slot;

import java.util.List;
import java.util.Objects;

/**
 * A {@link dev.gpureactor.core.CompletionPort} over one HIP stream and one word of a {@link
 * MappedLine}: query {@code hipStreamQuery} (the error authority; {@code hipErrorNotReady} is
 * pending), block {@code hipStreamSynchronize}, arm {@code hipStreamWriteValue64}, park on the word.
 */
public final class HipPort extends DriverPort {
    private final HipStream stream;

    public HipPort(MappedLine line, HipStream stream, Slot slot, long target) {
        this(line, stream, slot, target, line.page().options().park());
    }

    public HipPort(MappedLine line, HipStream stream, Slot slot, long target, WordPark park) {
        super(line.page().driver(), line.page(), Objects.requireNonNull(stream, "stream").handle(), slot, target, park, true);
        this.stream = stream;
    }

    private HipPort(HipRuntime hip, HipStream stream) {
        super(new HipLines(hip), null, stream.handle(), null, 0, WordPark.spinThenPark(), false);
        this.stream = stream;
    }

    /** A port without a line (the query plan). */
    public static HipPort queryOnly(HipRuntime hip, HipStream stream) {
        Objects.requireNonNull(hip, "hip");
        Objects.requireNonNull(stream, "stream");
        hip.require(List.of("hipStreamQuery", "hipStreamSynchronize", "hipGetErrorName", "hipGetErrorString"));
        return new HipPort(hip, stream);
    }

    public HipStream stream() { return stream; }
}
