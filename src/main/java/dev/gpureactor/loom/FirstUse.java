package dev.gpureactor.loom;

import dev.gpureactor.parker.SlotPoint;
import dev.gpureactor.carrier.BacklogEvent;
import dev.gpureactor.carrier.LiveThreads;
import dev.gpureactor.parker.WaitEvent;
import dev.gpureactor.parker.PortFailureEvent;
import dev.gpureactor.parker.Oversleep;
import dev.gpureactor.parker.ReliefEvent;
import dev.gpureactor.parker.ParkerLateEvent;
import dev.gpureactor.parker.ParkerThread;
import dev.gpureactor.parker.ParkerInbox;
import dev.gpureactor.parker.ParkerHosting;
import dev.gpureactor.parker.LineWait;
import dev.gpureactor.parker.LineWatch;
import dev.gpureactor.parker.LineGroup;
import dev.gpureactor.parker.LineParker;
import dev.gpureactor.park.SlowQueries;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.DeadlinePlan;
import dev.gpureactor.core.Durations;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.PointEstimate;
import dev.gpureactor.core.PointTable;
import dev.gpureactor.core.ReactorException;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/*
 * Implementation overview.
 *
 * A virtual thread that blocks inside class initialisation or call-site linkage pins its carrier:
 * the JVM cannot unmount a continuation with a VM frame on it, and JFR reports
 * jdk.VirtualThreadPinned "Freeze or preempt failed". Left to the first await of a reactor, that
 * work runs on the awaiting virtual thread: it initialises GpuFuture (its VarHandles), PointEstimate and
 * java.util.OptionalLong, links SlotPoint's record hashCode/equals (ObjectMethods bootstrap) as a
 * PointTable key, PointEstimate.observe's and observeAll's pattern switches (SwitchBootstraps), and the parker's
 * classes and the JFR event classes (which start JFR's metadata). When several virtual threads
 * await at once, all but one block on that initialisation, and each of those pins
 * (docs/SCALE.md, "Pinning").
 *
 * So the reactor's constructor runs that work once per JVM, on the thread that builds the first
 * reactor (a platform thread in every use the project knows; on a virtual thread it is the same
 * one-time cost the first await would pay). Initialisation order gives the happens-before: a
 * class initialised here is seen initialised by every thread (JLS 12.4.2), and a linked call site
 * stays linked. The same goes for a join's coded failures (a caller's limit or interrupt): the first
 * one in a JVM links the JDK's string concatenation, 15-25 ms on the caller that first times out. And
 * one profile: a join's return, seen by the JIT before a burst of joiners parks (joinProfiled).
 * What remains on a first await is the library's lambdas, linked on first execution
 * (they pin only if two virtual threads link the same one at once) and the JDK's own first use of
 * virtual threads.
 */
final class FirstUse {
    private FirstUse() {}

    /** The classes an await and a join reach that a reactor's construction does not already initialise. */
    static final List<Class<?>> AWAIT_PATH = List.of(GpuFuture.class, JoinerStack.class, FutureNode.class, FutureReports.class, FutureControls.class, FutureStage.class, NaiveWait.class,
            NaiveRunner.class, LineParker.class, ParkerInbox.class, ParkerHosting.class, ParkerThread.class, LineWait.class, Inline.class, LineGroup.class, LineWatch.class, Oversleep.class, SlowQueries.class, WaitEvent.class, ParkerLateEvent.class,
            PortFailureEvent.class, ReliefEvent.class, BacklogEvent.class, CompletionLine.class, PointEstimate.class,
            PointTable.class, LiveThreads.class, java.util.OptionalLong.class);

    /** Runs {@link #prime} once per JVM (the holder's class initialisation is the once). */
    static void ensure() {
        if (!Primed.DONE) throw new AssertionError("FirstUse.prime returned false");
    }

    private static final class Primed {
        static final boolean DONE = prime();
    }

    private static boolean prime() {
        try {
            for (Class<?> c : Stream.concat(AWAIT_PATH.stream(), ParkerThread.loopClasses().stream()).toList()) {
                Class.forName(c.getName(), true, c.getClassLoader());
                // Their nested classes (JoinerStack's joiner node, CompletionLine's listener) too, so that one added later is not forgotten.
                for (Class<?> nested : c.getDeclaredClasses()) Class.forName(nested.getName(), true, nested.getClassLoader());
            }
        } catch (ClassNotFoundException e) {
            throw new AssertionError("a class of the await path cannot be initialised", e);
        }
        // SlotPoint's hashCode and equals (ObjectMethods call sites, linked on first call), as PointTable uses them.
        SlotPoint a = new SlotPoint(null, 0), b = new SlotPoint(null, 1);
        PointTable<Object> table = new PointTable<>();
        DeadlinePlan plan = new DeadlinePlan(0, 0, 1_000, 2);
        table.observe(a, plan, new Outcome.Exact(1_000));
        boolean distinct = !a.equals(b) && !a.toString().isEmpty();
        // PointEstimate's reads (OptionalLong) and observe's pattern switch over every Outcome.
        PointEstimate e = table.estimate(a);
        for (Outcome o : List.of(new Outcome.Immediate(1), new Outcome.Exact(1), new Outcome.Late(1), new Outcome.Blocked(1))) {
            e = e.observe(plan, o);
        }
        // And the parker's fold of a scan's run (observeAll's own pattern switch), linked here too.
        table.observeAll(new SlotPoint(null, 2), plan, List.of(new Outcome.Immediate(1), new Outcome.Exact(1), new Outcome.Late(1), new Outcome.Blocked(1)));
        // A caller's own ends of a join (a limit, an interrupt), made as the join makes them: the coded
        // message and the limit in words, whose string concatenations link through the JDK's
        // StringConcatFactory (15 ms the first time in a JVM) and whose figures go through BigDecimal.
        String limits = Durations.text(Duration.ofNanos(-1)) + Durations.text(Duration.ZERO) + Durations.text(Duration.ofMillis(3))
                + Durations.text(Duration.ofMinutes(-2)) + Durations.text(Duration.ofHours(1));
        boolean coded = new ReactorException(ErrorCode.Timeout, "wait on " + a, limits).getMessage().startsWith("GAR-")
                && new ReactorException(ErrorCode.Interrupted, "wait on " + b).getMessage().startsWith("GAR-");
        joinProfiled();
        return distinct && coded && e.sleepNanos(plan).orElse(0) >= 0 && e.spreadNanos() >= 0 && table.sleepNanos(b, plan).isEmpty();
    }

    /**
     * Joins a completed future {@link #PROFILED_JOINS} times, so that the JIT's profile of {@code awaitDone}
     * has seen its return before a burst of joiners parks in it. Without that, when the first burst of a JVM
     * parks thousands of joiners before any returns, C2 may compile {@code awaitDone} with the return as a
     * never-taken branch; every joiner frozen in that code then deoptimises as it resumes (10,000-20,000 traps
     * in the first bursts of 10,000 joiners, in 4 of 8 fresh JVMs: docs/SCALE.md, "A first burst's
     * deoptimisation"). Fewer joins than the JIT's threshold for C2, so the profile it compiles from has the
     * parking joins of real use too.
     *
     * <p>The future belongs to no line. A recording that keeps every wait event (threshold 0) would have its
     * settle commit one: the commit then fails on the missing line before anything is recorded, and the
     * future is completed already (the commit is the settle's last step), so the failure is dropped here.
     * With the usual threshold nothing is committed at all.
     */
    private static void joinProfiled() {
        GpuFuture<Object> done = new GpuFuture<>(-1, null, null, null, Runnable::run, 0, 0, 0, null);
        try {
            done.signal();
        } catch (RuntimeException everyWaitRecorded) {
            // the event of a wait with no line, not recorded (above); the future is completed
        }
        if (!done.isDone()) return; // a settle that failed before completing it (none can): a join would wait for ever
        for (int i = 0; i < PROFILED_JOINS; i++) done.join();
    }

    /** Joins of a completed future at first use: past the interpreter's profiling start, short of C2's threshold. */
    static final int PROFILED_JOINS = 2_000;
}
