package dev.gpureactor.loom;

import dev.gpureactor.core.ReactorException;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The waits whose plan a thread runs now, in place of a parker: a joiner under the {@code naive}
 * kind, a platform joiner under {@code gpu-reactor}, the runner that takes a plan over when such a
 * joiner leaves early or a stage is asked for. No parker holds them, so the reactor's close ends
 * them here: {@link #close} fails each with the reactor's {@code ShutDown}, which wakes its runner
 * (on the future's joiner stack) and ends its plan at the next step, and every later run is told
 * the close at once (it asks its port once: {@link NaiveWait#afterClose}). The runs are few (one
 * per thread running a plan), so one lock guards them; the lock also orders a run that starts
 * against the close (either the close sees the run, or the run sees the close).
 */
final class PlanRuns {
    /** Guarded by itself, as is {@code closed}. Identity: a future is one run, whatever its equals. */
    private final Set<GpuFuture<?>> running = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Why the runs end, once closed; null while open. */
    private ReactorException closed;
    /** Places taken by joiners that run their plan where the parker watches (Inline.Plan#takenBy); guarded by {@code running}. */
    private int inline;

    /**
     * Starts a run of {@code f}'s plan: null, and the run is tracked until {@link #exit}; once
     * closed, the close's reason, and the caller settles {@code f} (outside the lock: a settle runs
     * stage completions).
     */
    ReactorException enter(GpuFuture<?> f) {
        synchronized (running) {
            if (closed == null) running.add(f);
            return closed;
        }
    }

    /** The run of {@code f} is over (settled, or handed on). */
    void exit(GpuFuture<?> f) {
        synchronized (running) {
            running.remove(f);
        }
    }

    /** Fails every run now with {@code why}, and every later {@link #enter}; idempotent. */
    void close(ReactorException why) {
        List<GpuFuture<?>> all;
        synchronized (running) {
            if (closed != null) return;
            closed = why;
            all = List.copyOf(running);
            running.clear();
        }
        for (GpuFuture<?> f : all) f.fail(why); // outside the lock: each settle wakes its runner and joiners
    }

    /** Takes one of {@code max} places for a joiner that runs its plan where the parker watches; false when none is free. */
    boolean reserveInline(int max) {
        synchronized (running) {
            if (inline >= max) return false;
            inline++;
            return true;
        }
    }

    /** Frees a place {@link #reserveInline} took. */
    void releaseInline() {
        synchronized (running) {
            inline--;
        }
    }

    /** How many plans run now (tests). */
    int size() {
        synchronized (running) {
            return running.size();
        }
    }
}
