package dev.gpureactor.loom;

import dev.gpureactor.parker.LineWait;

import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Who may run a wait's plan on the joining thread, given to a {@link GpuFuture} at construction.
 * A reactor makes its policy once and every await shares it, so an await allocates nothing for it.
 */
sealed interface Inline {
    /** Nobody: only the parker, a registrar's re-check, a port failure or a cancel settles the wait. */
    None NONE = new None();

    /** Nobody runs the plan inline: futures made outside a reactor, and waits failed before they started. */
    record None() implements Inline { }

    /**
     * A joiner runs the plan itself ({@code naive}, through the core's wait driver): any joiner (the
     * naive kind, or a plan the parker cannot watch; {@code parkerWatch} null), or, where the parker
     * watches the waits, only an untimed platform thread (the std host under gpu-reactor: a platform
     * thread gains nothing from a handoff, while a virtual thread waits for the parker).
     * {@code parkerWatch} registers a wait with its line's parker again: where the parker watches, a
     * joiner that leaves the plan early (its interrupt) gives the wait back to it.
     * {@code runner} runs the plan when nobody joins to run it where no parker watches (a stage asked
     * for first, a joiner that left early, a joiner with a limit under the {@code block} plan); null:
     * a new virtual thread on the JDK's scheduler.
     */
    record Plan(NaiveWait naive, Consumer<LineWait> parkerWatch, Executor runner) implements Inline {
        /** Plans run on joining threads at most, where the parker watches. */
        static final int INLINE_RUNS_MAX = Runtime.getRuntime().availableProcessors();

        /**
         * Whether {@code joiner} may take the plan over. Under the std host only an untimed platform
         * joiner does: one with a limit that took it over would leave it, at its limit, to a runner
         * that polls that one wait on its own (a core for a few hundred such waits), where the parker
         * watches them all; so it waits on the stack as a virtual thread does. An untimed one that is
         * interrupted gives the wait back to the parker ({@link NaiveRunner#leave}). And only while
         * fewer plans run on joining threads than there are cores: each polls its own wait, so a hundred
         * platform joiners running theirs keep two cores busy where the parker watching them all takes
         * a third of one; past that a platform joiner waits for the parker too. There, a true answer
         * holds one of those places until {@link #released}: checked and taken under one lock, so
         * joiners that come together cannot pass the bound.
         */
        boolean takenBy(Thread joiner, boolean timed) {
            return parkerWatch == null || (!joiner.isVirtual() && !timed && naive.runs().reserveInline(INLINE_RUNS_MAX));
        }

        /** The joiner that {@link #takenBy} let in is done with the plan: its place is free again. */
        void released() {
            if (parkerWatch != null) naive.runs().releaseInline();
        }

        /** Whether a stage with nobody joining starts a runner (under the std host the parker watches instead). */
        boolean runsForStage() { return parkerWatch == null; }
    }
}
