package dev.gpureactor.loom;

import dev.gpureactor.carrier.VirtualThreads;
import dev.gpureactor.carrier.CarrierPool;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.StackTrace;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link JfrAfterHostingTest}'s child JVM: a platform thread "host" runs a virtual thread's
 * continuation through the library's pool route ({@link CarrierPool#runWaiting} calls the task on the
 * calling thread, as {@code LineParker.host} calls its guest), then commits marks 1..3. Prints, per
 * guest, {@code <guest>=n@thread,...} for the marks the recording holds ("" is the virtual thread).
 */
public final class JfrAfterHostingMain {
    @Name("dev.gpureactor.test.Mark")
    @StackTrace(false)
    static final class MarkEvent extends Event {
        int n;

        static void commit(int n) {
            MarkEvent e = new MarkEvent();
            e.n = n;
            e.commit();
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("silent=" + record(() -> { }));
        System.out.println("committing=" + record(() -> MarkEvent.commit(100)));
    }

    private static String record(Runnable guest) throws Exception {
        Path file = Files.createTempFile("marks", ".jfr");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Recording rec = new Recording()) {
            rec.enable(MarkEvent.class);
            rec.start();
            Thread host = new Thread(() -> {
                try {
                    CarrierPool pool = CarrierPool.withoutCarriers();
                    Thread vt = VirtualThreads.builder(pool).unstarted(guest);
                    vt.start(); // queued on the pool: no carrier runs it
                    if (!pool.runWaiting()) throw new IllegalStateException("the guest was not queued");
                    if (vt.isAlive()) throw new IllegalStateException("the guest did not run to its end here");
                    for (int n = 1; n <= 3; n++) MarkEvent.commit(n);
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "host");
            host.start();
            host.join();
            rec.stop();
            rec.dump(file);
        }
        if (failure.get() != null) throw new AssertionError("the host failed", failure.get());
        List<String> marks = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (!e.getEventType().getName().equals("dev.gpureactor.test.Mark")) continue;
            marks.add(e.getInt("n") + "@" + (e.getThread() == null ? "?" : e.getThread().getJavaName()));
        }
        Files.delete(file);
        return String.join(",", marks);
    }
}
