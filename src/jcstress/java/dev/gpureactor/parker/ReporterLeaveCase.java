package dev.gpureactor.parker;

import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The body of {@link ReporterLeaveStress} and of {@link ReporterLeaveNegativeControl}, written once: the control
 * differs only by the reporter's {@code looksAgain} (the leaving thread's second look at the queue). The real
 * {@link Reporter}'s {@code offer}, {@code claim} and {@code leave}; no thread is started (a won claim is the
 * start), and its delivering thread is the {@code leave} actor, running with its queue found empty.
 */
final class ReporterLeaveCase {
    private final Reporter reporter;
    private int started, left;

    ReporterLeaveCase(boolean looksAgain) {
        reporter = new Reporter("jcstress", looksAgain);
        if (!reporter.claim()) throw new AssertionError("a fresh reporter runs no thread"); // the delivering thread runs
    }

    /** A post from a parker: its report, then the claim that would start a thread. */
    void post() {
        reporter.offer(() -> { });
        started = reporter.claim() ? 1 : 0;
    }

    /** The delivering thread, out of reports: it leaves, or takes the work up again. */
    void leave() {
        left = reporter.leave() ? 1 : 0;
    }

    void arbiter(II_Result r) {
        r.r1 = started;
        r.r2 = left;
    }
}
