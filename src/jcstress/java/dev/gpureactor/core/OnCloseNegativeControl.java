package dev.gpureactor.core;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.lang.foreign.Arena;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Negative control for {@link OnCloseStress}, never run in CI: the real line with {@link
 * CompletionLine.Controls} that remove {@code onClose}'s re-check of {@code closed}. A
 * listener added after close ran its listeners then never runs.
 */
@JCStressTest
@Description("Negative control: CompletionLine.onClose without its closed re-check vs. close.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "Run once.")
@Outcome(id = {"0", "2"}, expect = FORBIDDEN, desc = "The re-check removed: a listener added after close's pass never runs.")
@State
public class OnCloseNegativeControl {
    private final CompletionLine line = CompletionLine.wrap(Arena.ofAuto().allocate(CompletionLine.BYTES, CompletionLine.BYTES),
            "jcstress", () -> { }, new CompletionLine.Controls(true)); // the one line removed
    private final AtomicInteger runs = new AtomicInteger();

    @Actor
    public void listen() {
        line.onClose(runs::incrementAndGet);
    }

    @Actor
    public void close() {
        line.close();
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = runs.get();
    }
}
