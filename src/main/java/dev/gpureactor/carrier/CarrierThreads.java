package dev.gpureactor.carrier;

import dev.gpureactor.core.Capability;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Method;
import java.util.concurrent.ForkJoinPool;

/**
 * The one adapter to the JDK's carrier internals, beside {@link VirtualThreads} (the scheduler hook).
 *
 * <p>The JDK compensates a carrier that blocks in file I/O, a pipe read, {@code Process.waitFor},
 * {@code Object.wait} and the like ({@code jdk.internal.misc.Blocker}) only when the carrier is a
 * {@code jdk.internal.misc.CarrierThread}: the blocking call then asks the carrier's
 * {@code ForkJoinPool} for a spare ({@code beginCompensatedBlock}) before it blocks, and gives it back
 * after. Our carriers are {@code CarrierThread}s ({@link ForkJoinCarriers}), so everything the JDK
 * compensates for its own scheduler it compensates for ours, as quickly. The {@link CarrierWatch}
 * compensates the rest (pinned blocks, blocking calls the JDK does not wrap) through the same two pool
 * methods, so both kinds of compensation count against one bound, the pool's maximum size.
 *
 * <p>The package {@code jdk.internal.misc} is not exported, and the pool's two methods are
 * package-private. The reactor's carrier pool already needs {@code java.lang} opened to this module
 * ({@link VirtualThreads}); with it, this class exports {@code jdk.internal.misc} and opens it and
 * {@code java.util.concurrent} to this module only, through {@code Module.implAddExports} and
 * {@code implAddOpens}, the methods behind the {@code --add-exports} and {@code --add-opens} flags.
 * So a user passes no flag beyond the one the pool already names. Where that fails (a JDK whose
 * internals moved), the pool is unavailable and the reactor runs on the JDK's scheduler, with the
 * coded {@code ExecutorFallback} warning saying why.
 *
 * <p>Probed once, on first use: the handles, or the reason they cannot be had, are the only static state.
 */
final class CarrierThreads {
    private static final Object PROBE = probeOnce();

    private CarrierThreads() {}

    /** The pool methods and the carrier's compensation state, reachable. */
    private record Handles(MethodHandle begin, MethodHandle end, VarHandle compensating, VarHandle compensateValue) {}

    private static Object probeOnce() {
        try {
            Module base = Object.class.getModule(), us = CarrierThreads.class.getModule();
            Method exports = Module.class.getDeclaredMethod("implAddExports", String.class, Module.class);
            Method opens = Module.class.getDeclaredMethod("implAddOpens", String.class, Module.class);
            exports.setAccessible(true); // needs java.lang opened to us: the pool's own flag
            opens.setAccessible(true);
            exports.invoke(base, "jdk.internal.misc", us); // CarrierThread, the superclass of our carriers
            opens.invoke(base, "jdk.internal.misc", us);   // its compensation state, read by the watch
            opens.invoke(base, "java.util.concurrent", us); // the pool's compensated-block pair
            MethodHandles.Lookup fj = MethodHandles.privateLookupIn(ForkJoinPool.class, MethodHandles.lookup());
            MethodHandle begin = fj.findVirtual(ForkJoinPool.class, "beginCompensatedBlock", MethodType.methodType(long.class));
            MethodHandle end = fj.findVirtual(ForkJoinPool.class, "endCompensatedBlock", MethodType.methodType(void.class, long.class));
            Class<?> carrier = Class.forName("jdk.internal.misc.CarrierThread");
            VarHandle compensating = MethodHandles.privateLookupIn(carrier, MethodHandles.lookup())
                    .findVarHandle(carrier, "compensating", int.class);
            VarHandle compensateValue = MethodHandles.privateLookupIn(carrier, MethodHandles.lookup())
                    .findVarHandle(carrier, "compensateValue", long.class);
            return new Handles(begin, end, compensating, compensateValue);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // InaccessibleObjectException when java.lang is not opened to us; NoSuchMethod/Field where the JDK changed.
            return "the JDK's carrier internals cannot be reached (" + e + ")";
        }
    }

    /** Whether our carriers can be the JDK's {@code CarrierThread}s and be compensated as the JDK's, or why not. */
    static Capability capability() {
        return PROBE instanceof String why ? Capability.missing(why) : Capability.present();
    }

    private static Handles handles() {
        if (PROBE instanceof Handles h) return h;
        throw new IllegalStateException((String) PROBE); // the pool is made only where capability() is present
    }

    /**
     * {@code ForkJoinPool.beginCompensatedBlock}: activates an idle carrier, or lets one more be
     * active, or starts one, up to the pool's maximum size. Returns the value for {@link #endBlock};
     * 0 when the pool was saturated and nothing was compensated.
     */
    static long beginBlock(ForkJoinPool pool) {
        try {
            return (long) handles().begin.invokeExact(pool);
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /** {@code ForkJoinPool.endCompensatedBlock}: gives back what {@link #beginBlock} took. */
    static void endBlock(ForkJoinPool pool, long post) {
        try {
            handles().end.invokeExact(pool, post);
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /**
     * The watch's end of a compensated block: {@link #endBlock}, then a look at the pool's termination again
     * when it comes after the retirement's {@code shutdown} ({@code rechecks}: false only in jcstress's
     * negative control, {@code CompensationRetireNegativeControl}). While a compensation is held, the pool's
     * active count is one under its busy carriers. JDK 25's {@code ForkJoinPool}: {@code shutdown}'s
     * termination check sees the carrier still running the task that retired the pool; that carrier, going
     * idle, checks again only where the active count it leaves is 0 ({@code deactivate}), which the held
     * compensation makes -1, so it parks for its keep-alive; and once the carriers have left, termination
     * completes only on a ctl word of 0, which the held compensation also keeps from it. The block's end
     * restores the count, but nothing in the JDK looks again: so {@code shutdown} again does
     * ({@code tryTerminate}). Both sides are an atomic update of the ctl word followed by a read of the
     * other's: here {@code endCompensatedBlock}'s add, then the volatile read of the run state; there the
     * retirement's set of {@code SHUTDOWN} and, after it in program order, the idle carrier's
     * {@code deactivate} CAS and its read of the count. The two ctl updates are ordered: if the add comes
     * after the CAS it reads from it and sees {@code SHUTDOWN}, and if before, the CAS leaves 0 and the
     * carrier terminates the pool. So one of them at least ends the pool (jcstress
     * {@code CompensationRetireStress}). The JDK's own blocks cannot end after the retirement: they end on
     * their carrier, inside a live thread's task.
     */
    static void giveBack(ForkJoinPool pool, long post, boolean rechecks) {
        endBlock(pool, post);
        if (rechecks && pool.isShutdown()) pool.shutdown();
    }

    /**
     * Whether the JDK is compensating {@code carrier} now ({@code CarrierThread.compensating} is not
     * {@code NOT_COMPENSATING}): a blocking call it wraps is under way there. An opaque read of a
     * field its carrier writes plainly: at worst a tick stale, as every read of the watch.
     */
    static boolean jdkCompensating(Thread carrier) {
        return (int) handles().compensating.getOpaque(carrier) != 0;
    }

    /**
     * {@code CarrierThread.compensateValue}: what the JDK's last {@code beginBlocking} on {@code carrier}
     * took from its pool, 0 when it was saturated and nothing was compensated. Plain: read only by the
     * virtual thread that made that call, on that carrier, right after it.
     */
    static long compensateValue(Thread carrier) {
        return (long) handles().compensateValue.get(carrier);
    }

    private static RuntimeException rethrown(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }
}
