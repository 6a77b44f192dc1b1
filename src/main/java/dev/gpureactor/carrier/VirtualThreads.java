package dev.gpureactor.carrier;

import dev.gpureactor.core.Capability;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.JvmFlags;
import dev.gpureactor.core.ReactorException;

import java.lang.reflect.Constructor;
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
 * <p>Probed once: the constructor or the reason it cannot be had is the only static state.
 */
public final class VirtualThreads {
    private static final String BUILDER = "java.lang.ThreadBuilders$VirtualThreadBuilder";
    private static final Object PROBE = probeOnce();

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
