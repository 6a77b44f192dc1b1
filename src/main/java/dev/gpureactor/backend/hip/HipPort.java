package dev.gpureactor.backend.hip;

import dev.gpureactor.backend.DriverPort;
import dev.gpureactor.backend.MappedLine;
import dev.gpureactor.backend.WordPark;
import dev.gpureactor.core.Slot;

/**
 * A {@link dev.gpureactor.core.CompletionPort} over one HIP stream and one word of a {@link
 * MappedLine}: the {@link DriverPort} body under the HIP name. Query {@code hipStreamQuery} (the
 * error authority; {@code hipErrorNotReady} is pending), block {@code hipStreamSynchronize}, arm
 * {@code hipStreamWriteValue64}, park on the word.
 */
public final class HipPort extends DriverPort<HipStream> {
    /** {@link MappedLine#port(dev.gpureactor.backend.DriverStream, Slot, long, WordPark)} of a HIP line. */
    HipPort(MappedLine<HipStream, HipPort> line, HipStream stream, Slot slot, long target, WordPark park) {
        super(line, stream, slot, target, park);
    }

    private HipPort(HipRuntime hip, HipStream stream) {
        super(new HipLines(hip), stream, HipRuntime.QUERY_FUNCTIONS);
    }

    /**
     * {@return a port without a line (the query plan); works with a runtime that cannot make lines}
     *
     * @param hip the HIP runtime
     * @param stream the stream
     */
    public static HipPort queryOnly(HipRuntime hip, HipStream stream) {
        return new HipPort(hip, stream);
    }
}
