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
 * java.util.OptionalLong, links SlotPoint's record toString (ObjectMethods bootstrap), uses it as a
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
 * one in a JVM links the JDK's string concatenation, 15-25 ms on the caller that first times out.
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
        // SlotPoint as PointTable's key, and its toString (an ObjectMethods call site, linked on first call).
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
        return distinct && coded && e.sleepNanos(plan).orElse(0) >= 0 && e.spreadNanos() >= 0 && table.sleepNanos(b, plan).isEmpty();
    }
}
