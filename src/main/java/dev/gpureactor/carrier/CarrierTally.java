package dev.gpureactor.carrier;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.ToLongFunction;

/**
 * One carrier's run statistics: the tasks it ran and its busy time; and the {@link CarrierWatch}'s
 * notes on it.
 *
 * <p><b>Owner-written, read racily.</b> A tally is written by one carrier thread only (its owner;
 * a leaving carrier hands it to the next one through a concurrent queue, which orders the two
 * owners' writes), so an update is a plain read of the
 * owner's own last write and an opaque write: no CAS, no fence, no shared cache line per task, as
 * the JDK's {@code ForkJoinPool} counts its steals. A reader ({@link RunStats}, the MXBean) reads
 * each field opaquely: atomically (no torn {@code long}) and at most a little behind the owner, and a
 * sum over carriers is no snapshot of one moment. That is the documented staleness of every carrier
 * statistic; none of them decides anything.
 *
 * <p><b>Busy time is sampled.</b> Two {@code System.nanoTime()} calls per task were a tenth of a
 * carrier's samples when many threads were woken at once. A carrier times its first task, then each
 * task with probability 1/{@link #SAMPLE} (a per-tally xorshift: no shared state, and no aliasing
 * with a workload that alternates long and short tasks, as a fixed stride would), and adds a timed
 * task's time times {@code SAMPLE}. The sum is an unbiased estimate of the time spent running tasks;
 * its relative error is about {@code sqrt(SAMPLE / timed tasks)} for tasks of similar length.
 */
public final class CarrierTally {
    /** One task in SAMPLE is timed (a power of two). */
    public static final int SAMPLE = 8;

    private static final VarHandle TASKS, STARTED, BUSY, OS_ID;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TASKS = l.findVarHandle(CarrierTally.class, "tasks", long.class);
            STARTED = l.findVarHandle(CarrierTally.class, "started", long.class);
            BUSY = l.findVarHandle(CarrierTally.class, "busyNanos", long.class);
            OS_ID = l.findVarHandle(CarrierTally.class, "osThreadId", long.class);
            // Here, on the thread that makes a pool's first tally (its builder: CarrierPool's stray
            // tally), not on a carrier as it first calls owned(): no library class is initialised on a
            // carrier (FirstUseTest), where a virtual thread that waited for it would pin.
            l.ensureInitialized(OsThread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Tasks run. Owner: plain read, opaque write; readers: opaque read. */
    private long tasks;
    /**
     * Tasks begun; one more than {@link #tasks} while a task runs. Access as {@link #tasks}: the
     * {@link CarrierWatch} reads both opaquely to tell a carrier stuck in one task.
     */
    private long started;
    /** The watch's own: {@link #started} as it read it at its last tick. Watch thread only, plain. */
    long watchedStarted = -1;
    /**
     * The watch's own: the carrier thread's CPU time (ThreadMXBean) at its last tick, read only while
     * the carrier was RUNNABLE inside a task; -1 when not read then (idle, waiting, or no CPU clock). With
     * {@link #watchedStarted} it tells a carrier stuck in one task that burns no CPU: blocked in the OS.
     * Watch thread only, plain.
     */
    long watchedCpuNanos = -1;
    /** The watch's own: the look that last visited this tally's carrier. Watch thread only, plain. */
    long watchedLook;
    /** The watch's own: whether it holds a compensation for this tally's carrier. Watch thread only, plain. */
    boolean watchHolds;
    /** The watch's own: the value its held compensation gives back ({@link Carriers#endBlock}). Watch thread only, plain. */
    long watchPost;
    /** Estimated nanoseconds spent running tasks (see the class comment). Access as {@link #tasks}. */
    private long busyNanos;
    /**
     * The owner's kernel thread id ({@link OsThread#currentId}), written by each owner as it takes
     * the tally, before its first task; {@link OsThread#NO_ID} where unknown. Owner: opaque write;
     * the watch: opaque read. The carrier writes it before it adds itself to the live list the watch
     * iterates (a volatile write and read: ordered). Nothing
     * else orders it with {@link #started}: a look that pairs one owner's id with another's task
     * (a tally changing hands under the watch) is wrong for that tick only, as every racy read here.
     */
    private long osThreadId = OsThread.NO_ID;
    /** The sampler's xorshift state, never 0. Owner only, plain. */
    private int seed = (int) System.nanoTime() | 1;

    /**
     * Owner only: the weight of the next task's time, or 0 when it is not to be timed. The first
     * task is always timed (weight 1), so a carrier that ran anything shows busy time.
     */
    public long timedWeight() {
        if (tasks == 0) return 1;
        int x = seed;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        seed = x;
        return (x & (SAMPLE - 1)) == 0 ? SAMPLE : 0;
    }

    /** Owner only, as it takes the tally (its thread's start): records its kernel thread id for the watch. */
    void owned() { OS_ID.setOpaque(this, OsThread.currentId()); }

    /** Owner only: a task begins (one opaque store, no fence: the watch may see it a tick late). */
    void starting() { STARTED.setOpaque(this, started + 1); }

    /** Owner only: one task ran; {@code weightedNanos} is its time times its weight (0 when untimed). */
    public void ran(long weightedNanos) {
        if (weightedNanos != 0) BUSY.setOpaque(this, busyNanos + weightedNanos); // opaque: no torn read, no fence
        TASKS.setOpaque(this, tasks + 1);
    }


    public long tasks() { return (long) TASKS.getOpaque(this); }

    long started() { return (long) STARTED.getOpaque(this); }

    public long busyNanos() { return (long) BUSY.getOpaque(this); }


    public long osThreadId() { return (long) OS_ID.getOpaque(this); }

    /** {@code read} of {@code first} plus {@code read} of each of {@code rest}: a pool's total over its tallies. */
    static long sum(CarrierTally first, Iterable<CarrierTally> rest, ToLongFunction<CarrierTally> read) {
        long n = read.applyAsLong(first);
        for (CarrierTally t : rest) n += read.applyAsLong(t);
        return n;
    }
}
