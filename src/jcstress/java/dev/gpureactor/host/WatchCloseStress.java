package dev.gpureactor.host;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

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
    final WatchCloseCase c = new WatchCloseCase();

    @Actor public void watch() { c.watch(); }
    @Actor public void close() { c.close(); }
    @Arbiter public void arbiter(I_Result r) { c.arbiter(r); }
}
