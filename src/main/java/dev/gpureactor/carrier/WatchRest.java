package dev.gpureactor.carrier;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The carrier watch's rest: once its pool has been quiet for {@link CarrierWatch#QUIET_LOOKS_BEFORE_REST} looks
 * (nothing admitted, no adopted thread, no compensation held), the watch parks with no timeout instead of
 * looking ten times a second, and the admission that ends the quiet wakes it. An idle reactor then has no
 * thread of its own that wakes: each idle look was an OS wake, about 0.1 ms of CPU on a quiet VM.
 *
 * <p>The handshake is a Dekker pair. The watch writes {@code resting} (volatile), then reads the pool's ctl word
 * (volatile) to see whether it is still quiet; an admitter makes its fetch-and-add (or CAS) on the ctl word, and,
 * where the word it replaced held no admitted task, reads {@code resting}. Both are volatile accesses, so in
 * their one total order either the watch's read comes after the admitter's add (it sees the task and does not
 * park), or the admitter's read comes after the watch's write (it unparks the watch; an unpark before the park
 * leaves a permit, so the park returns at once). One CAS clears {@code resting}, so of many admitters that find
 * the pool empty at once, one unparks. jcstress: {@code WatchRestStress} (+ control).
 */
final class WatchRest {
    private static final VarHandle RESTING;

    static {
        try {
            RESTING = MethodHandles.lookup().findVarHandle(WatchRest.class, "resting", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** True from the watch's announcement until it looks again or an admitter claims its wake. Volatile: the Dekker pair. */
    private volatile boolean resting;
    /** Whether the watch reads the pool again after announcing its rest: false only in jcstress's negative control. */
    private final boolean rereads;
    /** The watch's thread, unparked by the admission that claims its wake; null in a pool without carriers (jcstress). */
    private volatile Thread watch;

    /** @param rereads false only in jcstress's negative control (the watch rests on what its last look read) */
    WatchRest(boolean rereads) { this.rereads = rereads; }

    /**
     * Watch: announces the rest, then reads again whether the pool is quiet ({@code quiet}: the pool's volatile
     * reads). Returns whether the watch may park with no timeout; when not, its rest is over already.
     */
    boolean announce(BooleanSupplier quiet) {
        resting = true; // volatile store, before the read of ctl below
        if (!rereads || quiet.getAsBoolean()) return true; // the control rests on its look's reading
        resting = false;
        return false;
    }

    /** The watch, as it is made: its thread is the one to unpark. */
    void watchedBy(Thread thread) { watch = thread; }

    /** Watch, back from its park (woken, stopped, or spuriously): it looks again from now on. */
    void over() { resting = false; }

    /**
     * An admitter whose add found no task admitted: claims a resting watch's wake and unparks it; returns whether it
     * claimed it. A read first: the common case, a watch that looks, costs no CAS.
     */
    boolean wake() {
        if (!resting || !RESTING.compareAndSet(this, true, false)) return false;
        Thread t = watch;
        if (t != null) LockSupport.unpark(t);
        return true;
    }

    /** Whether the watch rests now (tests, and jcstress's arbiter). */
    boolean isResting() { return resting; }
}
