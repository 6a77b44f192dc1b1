package dev.gpureactor.host;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import org.openjdk.jcstress.infra.results.I_Result;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The body of {@link WatchCloseStress} and of {@link WatchCloseNegativeControl}, written once: the
 * control differs only by the watcher's {@link Watcher.Controls} (its {@code skipsClosedCheck}:
 * {@code watch}'s check of {@code closed}).
 */
final class WatchCloseCase {
    /** A port that never says done: only the close can end the watch's future. */
    static final CompletionPort NEVER = new CompletionPort() {
        @Override public boolean query() { return false; }
        @Override public void block() { }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    };

    private final Watcher w;
    private final MemoryDescriptor d;
    private CompletableFuture<Void> f;

    /** The test's case: as the library builds it. */
    WatchCloseCase() {
        this(Watcher.Controls.NONE);
    }

    /** A negative control's case: {@code controls} changes its one line. */
    WatchCloseCase(Watcher.Controls controls) {
        w = new Watcher(Duration.ofMillis(1), Duration.ofMillis(1), x -> { }, controls);
        CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "jcstress", () -> { });
        d = new MemoryDescriptor(line, Slot.of(0), 1);
    }

    void watch() {
        f = w.watch(d, NEVER);
    }

    void close() {
        w.close();
    }

    void arbiter(I_Result r) {
        r.r1 = f.isDone() ? 1 : 0;
    }
}
