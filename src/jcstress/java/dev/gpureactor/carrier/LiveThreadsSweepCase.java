package dev.gpureactor.carrier;

import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The shared body of {@link LiveThreadsSweepStress} and its negative control: a thread's link (its entry
 * pushed on its stripe) against a sweep that finds the stripe's top entry cleared, on one stripe.
 *
 * <p>Setup: thread {@code below} linked and live, then thread {@code ended} linked and left, so the stack
 * is {@code ended} (cleared) over {@code below}. Actors: one links thread {@code begun}; one sweeps, which
 * takes the cleared top off the head and keeps {@code below}. The set sweeps at no push count here
 * ({@code sweepEvery} 0), so only the actor sweeps. The arbiter asks for both live threads.
 */
final class LiveThreadsSweepCase {
    private final LiveThreads live;
    private final Thread begun = Thread.ofVirtual().unstarted(() -> { });
    private final Thread below = Thread.ofVirtual().unstarted(() -> { });

    /** @param casesTheHead whether the sweep takes a cleared top off by CAS: false only in the negative control */
    LiveThreadsSweepCase(boolean casesTheHead) {
        live = new LiveThreads(1, 0, casesTheHead);
        live.link(new LiveThreads.Entry(), below);
        LiveThreads.Entry ended = new LiveThreads.Entry();
        live.link(ended, Thread.ofVirtual().unstarted(() -> { }));
        live.leave(ended);
    }

    /** Actor: a thread begins. */
    void link() { live.link(new LiveThreads.Entry(), begun); }

    /** Actor: a linker's sweep. */
    void sweep() { live.sweepNow(); }

    /** r1: whether the thread that began is found; r2: whether the live thread below the cleared top is. */
    void arbiter(II_Result r) {
        r.r1 = live.contains(begun) ? 1 : 0;
        r.r2 = live.contains(below) ? 1 : 0;
    }
}
