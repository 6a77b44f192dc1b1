package dev.gpureactor.host;

import dev.gpureactor.core.MemoryDescriptor;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Negative control for {@link WatchCloseStress}, never run in CI: the real watcher with
 * {@link Watcher.Controls} that remove one line, {@code watch}'s closed check.
 * A watch that comes after the close's drain is then added and never failed.
 */
@JCStressTest
@Description("Negative control: Watcher.watch without its closed check vs. close.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The future ended.")
@Outcome(id = "0", expect = FORBIDDEN, desc = "The closed check removed: a watch after the drain is never completed.")
@State
public class WatchCloseNegativeControl {
    private final Watcher w = new Watcher(Duration.ofMillis(1), Duration.ofMillis(1), x -> { },
            new Watcher.Controls(true)); // the one line removed
    private final MemoryDescriptor d = WatchCloseStress.descriptor();
    private CompletableFuture<Void> f;

    @Actor
    public void watch() {
        f = w.watch(d, WatchCloseStress.NEVER);
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
