package dev.gpureactor.carrier;

import dev.gpureactor.core.Capability;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.JvmFlags;
import dev.gpureactor.core.ReactorException;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.Executor;

/**
 * The one adapter to the JDK's virtual-thread scheduler hook. No JDK release has a public API for
 * it; the route is the package-private {@code java.lang.ThreadBuilders$VirtualThreadBuilder(Executor)}
 * constructor (the JDK's own tests use it), reachable only with
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED} on the class path, or
 * {@code --add-opens java.base/java.lang=dev.gpureactor} on the module path (the probe's message names
 * the form this copy of the library needs, {@link JvmFlags}). The scheduler handed to it is a
 * {@link CarrierPool}, whose {@code execute} is the thin adapter from this route to the pool's own
 * {@code onStart}/{@code onContinue} (shaped as the Loom early-access scheduler API). When a public
 * scheduler API ships, this class and that adapter are what changes.
 *
 * <p>The route hands the scheduler only a {@code Runnable}, for a thread's start and for each resume
 * alike. To tell them apart, {@link #threadOf} reads the virtual thread behind the task (the JDK's
 * {@code VirtualThread.runContinuation}, a method reference holding its thread) and {@link #isStarting}
 * its state: a start is submitted in state {@code STARTED}, which only its first run leaves.
 *
 * <p>Probed once: the constructor, the continuation's reader, or the reason they cannot be had, are
 * the only static state.
 */
public final class VirtualThreads {
    private static final String BUILDER = "java.lang.ThreadBuilders$VirtualThreadBuilder";
    private static final Object PROBE = probeOnce();
    /** The class of every virtual thread's continuation task; null where it cannot be read (then {@link #threadOf} reads none). */
    private static final Class<?> TASK;
    /** The thread a continuation task holds: {@code (Runnable) -> Thread}. */
    private static final MethodHandle THREAD_OF;
    /** {@code VirtualThread.state}, read volatile, and its {@code STARTED} value. */
    private static final VarHandle STATE;
    private static final int STARTED;

    static {
        startJdkPollers();
        Class<?> task = null;
        MethodHandle threadOf = null;
        VarHandle state = null;
        int started = -1;
        try {
            Class<?> vt = Class.forName("java.lang.VirtualThread");
            MethodHandles.Lookup in = MethodHandles.privateLookupIn(vt, MethodHandles.lookup());
            Thread probe = Thread.ofVirtual().unstarted(() -> { });
            if (vt.isInstance(probe)) { // not without continuations: a bound virtual thread has no task
                Runnable run = (Runnable) in.findVarHandle(vt, "runContinuation", Runnable.class).get(probe);
                Field held = null;
                for (Field f : run.getClass().getDeclaredFields()) if (f.getType() == vt) held = f;
                if (held != null) {
                    MethodHandle get = MethodHandles.privateLookupIn(run.getClass(), MethodHandles.lookup()).unreflectGetter(held)
                            .asType(MethodType.methodType(Thread.class, Runnable.class));
                    if ((Thread) get.invokeExact(run) == probe) {
                        task = run.getClass();
                        threadOf = get;
                        state = in.findVarHandle(vt, "state", int.class);
                        started = (int) in.findStaticVarHandle(vt, "STARTED", int.class).get();
                    }
                }
            }
        } catch (Throwable e) {
            task = null; // java.lang not opened, or the JDK's internals moved: starts are told by the live count alone
        }
        TASK = task;
        THREAD_OF = threadOf;
        STATE = state;
        STARTED = started;
    }

    private VirtualThreads() {}

    private static Object probeOnce() {
        try {
            Constructor<?> c = Class.forName(BUILDER).getDeclaredConstructor(Executor.class);
            c.setAccessible(true);
            c.newInstance((Executor) Runnable::run); // a builder only, no thread: the JDK refuses here where it cannot
            return c;
        } catch (InvocationTargetException e) {
            // UnsupportedOperationException: the JVM runs virtual threads without continuations
            // (-XX:-VMContinuations), each on a platform thread of its own, so no scheduler can be given.
            return "this JVM gives virtual threads no scheduler (" + e.getCause()
                    + "): it runs them without continuations (-XX:-VMContinuations), each on a platform thread";
        } catch (RuntimeException e) {
            // InaccessibleObjectException when java.lang is not opened to us.
            return "the JDK's virtual-thread scheduler hook is closed (" + e.getClass().getSimpleName()
                    + "): add " + JvmFlags.addOpens(VirtualThreads.class.getModule()) + " to the java command";
        } catch (ReflectiveOperationException e) {
            return "this JDK has no " + BUILDER + "(Executor) (" + e + ")";
        }
    }

    /**
     * Whether virtual threads can be scheduled on our own carriers, or why not: the hook, and the
     * JDK's carrier internals behind it ({@link CarrierThreads}), which need the same opening.
     */
    public static Capability capability() {
        return PROBE instanceof String why ? Capability.missing(why) : CarrierThreads.capability();
    }

    /**
     * Throws the coded refusal ({@link ErrorCode#ExecutorRefused}) where our carriers cannot run. Call
     * before anything names {@link ForkJoinCarriers}: its carrier class extends the JDK's
     * {@code CarrierThread}, which the probe exports to us, and loaded first it fails for good
     * ({@code IllegalAccessError}, remembered by the JVM).
     */
    static void requireCarrierPool() {
        capability().missing().ifPresent(why -> {
            throw new ReactorException(ErrorCode.ExecutorRefused, "carrier-pool", why);
        });
    }

    /**
     * Starts the JDK's I/O pollers now, before any pool exists. The JDK starts them at the first socket
     * read or write a virtual thread parks in, on virtual threads of their own ({@code SubPoller-N}, the
     * default poller mode on Linux) built without a scheduler, so they take the scheduler of the thread
     * that happened to be first: one of ours would keep the JDK's pollers on our carriers for the life of
     * the JVM (and, once that pool closed, leave every virtual thread's socket I/O in the JVM waiting for
     * a poller nobody runs). Started from here (a thread of no pool: no pool exists yet), they run where
     * the JDK's own virtual threads do. Their class initialiser does only that; where it is missing or
     * fails, the JDK reports it at its own first use.
     */
    private static void startJdkPollers() {
        try {
            Class.forName("sun.nio.ch.Poller", true, null);
        } catch (ClassNotFoundException | LinkageError e) {
            // another JDK's layout, or its pollers failed to start: nothing of ours depends on them
        }
    }

    /**
     * The virtual thread whose continuation {@code task} is, or null: a task that is none, or a JDK whose
     * continuation cannot be read here.
     */
    static Thread threadOf(Runnable task) {
        if (task.getClass() != TASK) return null;
        try {
            return (Thread) THREAD_OF.invokeExact(task);
        } catch (Throwable e) {
            return null; // a getter does not throw
        }
    }

    /** Whether {@code t} (a thread {@link #threadOf} read) was started and has not run yet: its task is a start. */
    static boolean isStarting(Thread t) {
        return (int) STATE.getVolatile(t) == STARTED;
    }

    /** A virtual-thread builder whose threads run on {@code scheduler}. */
    public static Thread.Builder.OfVirtual builder(Executor scheduler) {
        if (PROBE instanceof String why) throw new ReactorException(ErrorCode.ExecutorRefused, "carrier-pool", why);
        try {
            return (Thread.Builder.OfVirtual) ((Constructor<?>) PROBE).newInstance(scheduler);
        } catch (ReflectiveOperationException e) {
            throw new ReactorException(ErrorCode.ExecutorRefused, e, "carrier-pool", e.toString());
        }
    }
}
