package dev.gpureactor.core;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Negative control for {@link OnCloseStress}, never run in CI: the same test ({@link OnCloseCase})
 * and its outcomes ({@link JCStressMeta}), on the real line with {@link CompletionLine.Controls}
 * that remove {@code onClose}'s re-check of {@code closed}. A listener added after close ran its
 * listeners then never runs.
 */
@JCStressTest
@JCStressMeta(OnCloseStress.class)
@Description("Negative control: CompletionLine.onClose without its closed re-check vs. close.")
@State
public class OnCloseNegativeControl {
    final OnCloseCase c = new OnCloseCase(new CompletionLine.Controls(true)); // the one line removed

    @Actor public void listen() { c.listen(); }
    @Actor public void close() { c.close(); }
    @Arbiter public void arbiter(I_Result r) { c.arbiter(r); }
}
