package dev.gpureactor.soak;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Counts JFR {@code jdk.VirtualThreadPinned} events (threshold 0, so every park of a pinned virtual
 * thread counts, not only those over the default 20 ms) from {@link #start()} to {@link #stop()}:
 * a virtual thread that blocks while pinned holds its carrier, which is what this library exists
 * to avoid.
 *
 * <p>The events go to a recording file that is read only in {@link #stop()}: JFR keeps its buffers
 * off the heap, while an in-process event stream would parse as it goes and cache an object per
 * thread it has seen (the soak starts thousands), which the soak's heap check would then measure.
 *
 * <p>Events that started before {@link #warmedUp()} are counted apart: the first use of a class
 * pins (a virtual thread that loads or waits for the initialisation of a class cannot unmount;
 * JEP 491 leaves that case), and that happens once, in the warm-up, whatever the library does.
 *
 * <p>Events whose top frame is the JDK's own interrupt handshake ({@code VirtualThread.interrupt}
 * or {@code getAndClearInterrupt}) are also counted apart: the JDK pins a virtual thread on purpose
 * while it clears an interrupt flag that is set, under a lock the interrupting thread holds for a
 * moment; any code that honours interrupts ({@code Thread.interrupted()}) meets it, and only when
 * an interrupt was delivered. Everything else counts.
 */
public final class PinWatch implements AutoCloseable {
    private static final String EVENT = "jdk.VirtualThreadPinned";
    private static final int SAMPLES = 5;

    private final Recording recording;
    private final String unavailable;
    private volatile Instant warmedUp;
    private Pins result;

    private PinWatch(Recording recording, String unavailable) {
        this.recording = recording;
        this.unavailable = unavailable;
    }

    /**
     * What the watch saw: events after the warm-up and a few samples of them (thread, reason, top
     * frames), the same for the warm-up, or why it could not watch.
     */
    public record Pins(long events, List<String> samples, long warmup, List<String> warmupSamples, long interruptHandshake,
                       List<String> interruptSamples, Optional<String> unavailable) {
        public Pins {
            samples = List.copyOf(samples);
            warmupSamples = List.copyOf(warmupSamples);
            interruptSamples = List.copyOf(interruptSamples);
        }
    }

    /** Starts watching; a JVM without JFR gives a watch that says why it saw nothing. */
    public static PinWatch start() {
        try {
            Recording r = new Recording();
            r.setName("gar-pin-watch");
            r.enable(EVENT).withThreshold(Duration.ZERO).withStackTrace();
            r.disable("dev.gpureactor.Wait"); // on by default; the watch records pinning, not waits
            r.start();
            return new PinWatch(r, null);
        } catch (RuntimeException | LinkageError e) {
            return new PinWatch(null, "JFR is unavailable: " + e);
        }
    }

    /** Marks the end of the warm-up: events that start from now on count. */
    public void warmedUp() {
        warmedUp = Instant.now();
    }

    /** Stops watching and returns what was seen; a second call returns the same. */
    public synchronized Pins stop() {
        if (result != null) return result;
        if (recording == null) return result = new Pins(0, List.of(), 0, List.of(), 0, List.of(), Optional.of(unavailable));
        Path file = null;
        try {
            recording.stop();
            file = Files.createTempFile("gar-pins-", ".jfr");
            recording.dump(file);
            Instant w = warmedUp;
            long events = 0, warmup = 0, handshake = 0;
            List<String> samples = new ArrayList<>(), warmupSamples = new ArrayList<>(), interruptSamples = new ArrayList<>();
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                if (!e.getEventType().getName().equals(EVENT)) continue;
                if (isInterruptHandshake(e)) {
                    handshake++;
                    if (interruptSamples.size() < SAMPLES) interruptSamples.add(describe(e));
                } else if (w == null || e.getStartTime().isBefore(w)) {
                    warmup++;
                    if (warmupSamples.size() < SAMPLES) warmupSamples.add(describe(e));
                } else {
                    events++;
                    if (samples.size() < SAMPLES) samples.add(describe(e));
                }
            }
            return result = new Pins(events, samples, warmup, warmupSamples, handshake, interruptSamples, Optional.empty());
        } catch (IOException | RuntimeException e) {
            return result = new Pins(0, List.of(), 0, List.of(), 0, List.of(), Optional.of("the JFR recording could not be read: " + e));
        } finally {
            recording.close();
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a temp file left behind is harmless
                }
            }
        }
    }

    private static boolean isInterruptHandshake(RecordedEvent e) {
        if (e.getStackTrace() == null || e.getStackTrace().getFrames().isEmpty()) return false;
        RecordedFrame top = e.getStackTrace().getFrames().getFirst();
        String m = top.getMethod().getName();
        return top.getMethod().getType().getName().equals("java.lang.VirtualThread")
                && (m.equals("getAndClearInterrupt") || m.equals("interrupt"));
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

    @Override
    public void close() { stop(); }
}
