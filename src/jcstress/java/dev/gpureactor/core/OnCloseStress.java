package dev.gpureactor.core;

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
 * {@link CompletionLine#onClose(Runnable)} against {@link CompletionLine#close()}, on the real
 * line: the listener is added, then {@code closed} re-read; close writes {@code closed}, then runs
 * the listeners it finds; whoever runs a listener first removes it. The reactor's parker cleanup
 * hangs on this: a listener that never runs leaves a parker on a closed line, one run twice closes
 * it twice.
 *
 * <p>Result: r1 how many times the listener ran.
 */
@JCStressTest
@Description("CompletionLine.onClose vs. close: the listener runs exactly once.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "Run once: by close, or by onClose seeing the line closed.")
@Outcome(id = {"0", "2"}, expect = FORBIDDEN, desc = "Bug prevented: the listener never ran (each side missed the other), or ran twice.")
@State
public class OnCloseStress {
    final OnCloseCase c = new OnCloseCase();

    @Actor public void listen() { c.listen(); }
    @Actor public void close() { c.close(); }
    @Arbiter public void arbiter(I_Result r) { c.arbiter(r); }
}
