package dev.gpureactor.host;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Negative control for {@link WatchCloseStress}, never run in CI: the same test
 * ({@link WatchCloseCase}) and its outcomes ({@link JCStressMeta}), on the real watcher with
 * {@link Watcher.Controls} that remove one line, {@code watch}'s closed check. A watch that comes
 * after the close's drain is then added and never failed.
 */
@JCStressTest
@JCStressMeta(WatchCloseStress.class)
@Description("Negative control: Watcher.watch without its closed check vs. close.")
@State
public class WatchCloseNegativeControl {
    final WatchCloseCase c = new WatchCloseCase(new Watcher.Controls(true)); // the one line removed

    @Actor public void watch() { c.watch(); }
    @Actor public void close() { c.close(); }
    @Arbiter public void arbiter(I_Result r) { c.arbiter(r); }
}
