package dev.gpureactor.host;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.Slot;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link Watcher#watch} against {@link Watcher#close()}, on the real watcher (its thread included):
 * the watched word never arrives and the port never says done, so the only way the future can end
 * is the close. After both actors (close has joined the watcher thread and drained), the future
 * must be done: failed with ShutDown either by the drain or by {@code watch} itself.
 *
 * <p>Result: r1 1 when the watch's future is done.
 */
@JCStressTest
@Description("Watcher.watch vs. close: the watch's future always ends (ShutDown), never left pending.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The future ended: failed by the close's drain, or by watch seeing closed.")
@Outcome(id = "0", expect = FORBIDDEN, desc = "Bug prevented: the registration landed after the drain; the future never completes (19 of 2,000 before).")
@State
public class WatchCloseStress {
    static final CompletionPort NEVER = new CompletionPort() {
        @Override public boolean query() { return false; }
        @Override public void block() { }
        @Override public void arm() { }
        @Override public boolean park(long boundNanos) { return false; }
    };

    static MemoryDescriptor descriptor() {
        CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES), "jcstress", () -> { });
        return new MemoryDescriptor(line, Slot.of(0), 1);
    }

    private final Watcher w = new Watcher(Duration.ofMillis(1), Duration.ofMillis(1), x -> { });
    private final MemoryDescriptor d = descriptor();
    private CompletableFuture<Void> f;

    @Actor
    public void watch() {
        f = w.watch(d, NEVER);
    }

    @Actor
    public void close() {
        w.close();
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = f.isDone() ? 1 : 0;
    }
}
