package dev.gpureactor.cli.soak;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * Counts JFR {@code jdk.VirtualThreadPinned} events (threshold 0, so every park of a pinned virtual
 * thread counts, not only those over the default 20 ms) from {@link #start()} to {@link #stop()}:
 * a virtual thread that blocks while pinned holds its carrier, which is what this library exists
 * to avoid. The stream is in-process ({@link RecordingStream}); {@link #stop()} flushes it and waits
 * until every event recorded before it was counted.
 *
 * <p>Events that started before {@link #warmedUp()} are counted apart: the first use of a class
 * pins (a virtual thread that loads or waits for the initialisation of a class cannot unmount;
 * JEP 491 leaves that case), and that happens once, in the warm-up, whatever the library does.
 * An event delivered before the mark was set started before it, so the split is exact.
 */
public final class PinWatch implements AutoCloseable {
    private static final String EVENT = "jdk.VirtualThreadPinned";
    private static final int SAMPLES = 5;

    private final RecordingStream stream;
    private final String unavailable;
    private final LongAdder events = new LongAdder(), warmup = new LongAdder();
    private final List<String> samples = new CopyOnWriteArrayList<>(), warmupSamples = new CopyOnWriteArrayList<>();
    private volatile Instant warmedUp;

    private PinWatch(RecordingStream stream, String unavailable) {
        this.stream = stream;
        this.unavailable = unavailable;
    }

    /**
     * What the watch saw: events after the warm-up and a few samples of them (thread, reason, top
     * frames), the same for the warm-up, or why it could not watch.
     */
    public record Pins(long events, List<String> samples, long warmup, List<String> warmupSamples, Optional<String> unavailable) {
        public Pins {
            samples = List.copyOf(samples);
            warmupSamples = List.copyOf(warmupSamples);
        }
    }

    /** Starts watching; a JVM without JFR gives a watch that says why it saw nothing. */
    public static PinWatch start() {
        RecordingStream rs;
        try {
            rs = new RecordingStream();
        } catch (RuntimeException | LinkageError e) {
            return new PinWatch(null, "JFR is unavailable: " + e);
        }
        PinWatch w = new PinWatch(rs, null);
        rs.enable(EVENT).withThreshold(Duration.ZERO).withStackTrace();
        rs.onEvent(EVENT, w::count);
        rs.startAsync();
        return w;
    }

    /** Marks the end of the warm-up: events that start from now on count. */
    public void warmedUp() {
        warmedUp = Instant.now();
    }

    private void count(RecordedEvent e) {
        Instant w = warmedUp;
        if (w == null || e.getStartTime().isBefore(w)) {
            warmup.increment();
            if (warmupSamples.size() < SAMPLES) warmupSamples.add(describe(e));
        } else {
            events.increment();
            if (samples.size() < SAMPLES) samples.add(describe(e));
        }
    }

    private static String describe(RecordedEvent e) {
        String thread = e.getThread() == null ? "?" : e.getThread().getJavaName();
        String frames = e.getStackTrace() == null ? "" : e.getStackTrace().getFrames().stream().limit(8)
                .map(PinWatch::frame).collect(Collectors.joining(" < "));
        String reason = e.hasField("pinnedReason") ? " (" + e.getString("pinnedReason") + ")" : "";
        String op = e.hasField("blockingOperation") ? " in " + e.getString("blockingOperation") : "";
        return thread + " pinned " + e.getDuration().toNanos() / 1000 + " us" + reason + op + " at " + frames;
    }

    private static String frame(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":" + f.getLineNumber();
    }

    /** Stops watching and returns what was seen; a second call returns the same. */
    public synchronized Pins stop() {
        if (stream != null) {
            stream.stop();
            stream.close();
        }
        return new Pins(events.sum(), samples, warmup.sum(), warmupSamples, Optional.ofNullable(unavailable));
    }

    @Override
    public void close() { stop(); }
}
