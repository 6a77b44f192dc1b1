package dev.gpureactor.loom;

import dev.gpureactor.parker.ParkerHooks;
import dev.gpureactor.parker.LineParker;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Faults a test arms on one parker at a time, given to a reactor through
 * {@code GpuReactor.Builder#parkerHooks}: each map runs, for the parker it is keyed by, the fault at
 * that point of the parker's threads. A parker with nothing armed runs as the library's do.
 */
final class ParkerFaults implements ParkerHooks {
    /** Run at the top of every pass of the parker's loop, inside its error handling. */
    final Map<LineParker, Runnable> pass = new ConcurrentHashMap<>();
    /** Run on a hosting thread just before it counts the hosting. */
    final Map<LineParker, Runnable> host = new ConcurrentHashMap<>();
    /** Run by a relieved thread once it is published as standing by, before it parks. */
    final Map<LineParker, Runnable> standBy = new ConcurrentHashMap<>();
    /** Run by the parker's leaving thread before each try to leave. */
    final Map<LineParker, Runnable> leaving = new ConcurrentHashMap<>();

    @Override public void beforePass(LineParker parker) { run(pass, parker); }

    @Override public void beforeHostingCount(LineParker parker) { run(host, parker); }

    @Override public void beforeStandby(LineParker parker) { run(standBy, parker); }

    @Override public void beforeLeaving(LineParker parker) { run(leaving, parker); }

    private static void run(Map<LineParker, Runnable> faults, LineParker parker) {
        Runnable r = faults.get(parker);
        if (r != null) r.run();
    }
}
