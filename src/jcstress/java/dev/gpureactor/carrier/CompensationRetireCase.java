package dev.gpureactor.carrier;

import org.openjdk.jcstress.infra.results.I_Result;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The shared body of {@link CompensationRetireStress} and its negative control: the watch's give-back of a
 * compensation ({@link CarrierThreads#giveBack}) against the carrier it compensated going idle after it
 * retired the pool, on a real {@link ForkJoinPool} made as the carriers' is (async mode, a keep-alive).
 *
 * <p>Setup: a carrier runs the pool's last task, held; the watch's compensation for it is taken
 * ({@link CarrierThreads#beginBlock}, from this thread, as the watch's: a spare starts). Actors: one releases
 * the task, which retires the pool ({@code shutdown}, as {@code Carriers.retire} runs on the carrier of the
 * last live thread: its own look at the termination sees that carrier busy) and returns, so the carrier goes
 * idle ({@code deactivate}); the watch, once the task has retired the pool, gives its compensation back, so
 * its add to the ctl word races the carrier's deactivation, which looks at the termination only where it leaves
 * the count at 0, as the held compensation keeps it from doing. The arbiter waits until the carriers have left
 * (the pool terminated), or until every carrier has stayed idle {@link #SETTLE_NANOS}: a pool left so waits
 * out its keep-alive ({@link #KEEP_ALIVE_S}, far past the look). It then ends the pool itself, so a fork does not
 * pile up threads.
 */
final class CompensationRetireCase {
    /** The pool's keep-alive: carriers parked for it are ones the retirement left behind. */
    private static final long KEEP_ALIVE_S = 60;
    /** How long the carriers stay idle, no termination begun, before the arbiter calls them left behind. */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** A hang bound for the setup's and the arbiter's waits, never reached by a passing or a failing run. */
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(20);

    private final boolean rechecks;
    /** The pool's carriers, as its factory made them. */
    private final List<Thread> carriers = new CopyOnWriteArrayList<>();
    private final ForkJoinPool pool = new ForkJoinPool(1, fj -> {
        ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(fj);
        carriers.add(t);
        return t;
    }, null, true, 0, 4, 1, p -> true, KEEP_ALIVE_S, TimeUnit.SECONDS);
    /** The carrier running the task; set by it. */
    private volatile Thread blocked;
    /** Set when the task may end. */
    private volatile boolean released;
    /** Set by the task once it retired the pool, as it returns. */
    private volatile boolean retired;
    /** What the watch's begin returned: the value its give-back takes. */
    private final long post;

    /** @param rechecks whether the give-back looks at the termination again: false only in the negative control */
    CompensationRetireCase(boolean rechecks) {
        this.rechecks = rechecks;
        long end = System.nanoTime() + BOUND_NANOS;
        pool.execute(() -> {
            blocked = Thread.currentThread();
            while (!released) LockSupport.park(this);
            pool.shutdown(); // the retirement, from the task of the pool's last live thread
            retired = true;
        });
        while (blocked == null) await(end);
        post = CarrierThreads.beginBlock(pool); // the watch compensates the blocked carrier: a spare starts
        if (post == 0) throw new IllegalStateException("the pool was saturated: nothing compensated");
        while (carriers.size() < 2 || !idle(carriers.get(1))) await(end); // the spare started and found nothing
    }

    /** Actor: the last task ends, retiring the pool. */
    void release() {
        released = true;
        LockSupport.unpark(blocked);
    }

    /** Actor: the watch gives its compensation back once the pool is retired: its add races the carrier's going idle. */
    void watch() {
        long end = System.nanoTime() + BOUND_NANOS;
        while (!retired && System.nanoTime() - end < 0) Thread.onSpinWait();
        CarrierThreads.giveBack(pool, post, rechecks);
    }

    /**
     * r1: 1 when the pool's termination began (its carriers leave), 0 when every carrier stayed idle
     * {@link #SETTLE_NANOS}, parked for its keep-alive, and it did not begin. Read passively: the run state as
     * {@code toString} prints it, and the carriers' thread states. {@code isTerminating}, {@code isTerminated}
     * and {@code awaitTermination} each run the pool's own termination check, which would end a pool left
     * behind and hide the bug.
     */
    void arbiter(I_Result r) {
        long end = System.nanoTime() + BOUND_NANOS;
        long idleSince = 0;
        for (long now; !ending() && (now = System.nanoTime()) - end < 0; Thread.yield()) {
            if (!carriers.stream().allMatch(CompensationRetireCase::idle)) idleSince = 0;
            else if (idleSince == 0) idleSince = now;
            else if (now - idleSince > SETTLE_NANOS) break;
        }
        r.r1 = ending() ? 1 : 0;
        pool.shutdownNow();
    }

    /** Whether termination began: {@code ForkJoinPool.toString} reads the run state without acting on it. */
    private boolean ending() {
        String s = pool.toString();
        return s.contains("[Terminating,") || s.contains("[Terminated,");
    }

    /** Parked in the pool's idle wait (nothing else parks a carrier once the task has returned). */
    private static boolean idle(Thread t) {
        Thread.State s = t.getState();
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
    }

    private static void await(long end) {
        if (System.nanoTime() - end > 0) throw new IllegalStateException("the setup did not settle");
        Thread.yield();
    }
}
