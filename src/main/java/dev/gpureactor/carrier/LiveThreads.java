package dev.gpureactor.carrier;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The carrier pool's live virtual threads by identity: only so that {@link CarrierPool#close} can
 * name what still runs ({@code LiveAtClose}) and tell a close from inside one of them. Their count,
 * which decides retirement, is the pool's ctl word, not this.
 *
 * <p><b>Shape.</b> Each thread links itself once, as it begins, and leaves once, as it ends (never per
 * resume), under an entry made before it began, so its beginning cannot fail for want of memory
 * ({@link CarrierPool#liveBody}). A thread's {@link Entry} goes onto one of a power-of-two number of
 * stripes (at least four per carrier) chosen by its thread id: a Treiber stack, pushed by one CAS on
 * the stripe's head. Leaving is one volatile store to the thread's own entry (its {@code thread}
 * cleared): no lock, no shared word, no neighbour's entry written. A mass wake ends thousands of threads
 * at once on every carrier, and the doubly linked list this replaced (an unlink under the stripe's
 * monitor, writing both neighbours) was 13–17 % of those carriers' CPU (docs/SCALE.md).
 *
 * <p><b>Sweeping.</b> The entries of ended threads stay on their stripe until its sweep unlinks them. The
 * sweep goes in steps, one every {@link #SWEEP_EVERY} pushes on the stripe, taken by the linker of that
 * push: a step visits at most {@link #SWEEP_STEP} entries, from where the last one stopped, and a pass
 * that reaches the bottom starts again at the head. So a thread's first act never walks more than a step,
 * whatever the number of live threads, and a pass over a stripe of {@code n} entries takes {@code n / 4}
 * pushes: a stripe holds at most about twice its live entries, plus a few steps' worth. A cleared entry
 * holds no thread, so an ended thread is never kept from the collector. One thread sweeps a stripe at a
 * time (a try-lock); a linker that finds it taken goes on.
 *
 * <p><b>Ordering.</b> An entry is published by its push: its {@code thread} and {@code next} are written
 * before the CAS that makes it the head, and a reader's acquire of the head sees them, and every entry
 * below it (each pushed by an earlier CAS on the same word). The sweeper writes only {@code next} of an
 * entry it reached, to an entry further down (pushed earlier: visible to anyone who reached the first),
 * and takes a cleared first entry off the head only by CAS, so a push racing it is never lost (the
 * forbidden outcome of {@code LiveThreadsSweepStress}). Nothing else moves an entry, and an entry is
 * cleared once, never set again: so a walk that meets an entry the sweeper just unlinked still reaches
 * every live entry below it. {@link CarrierPool} orders the count on ctl around these calls (link after
 * the count goes up, leave before it goes down): the leave's volatile store comes before the count's
 * decrement, so a thread found here is counted at the instant it is found.
 */
public final class LiveThreads {
    private static final VarHandle THREAD, HEAD, SWEEPING;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            THREAD = l.findVarHandle(Entry.class, "thread", Thread.class);
            HEAD = l.findVarHandle(Stripe.class, "head", Entry.class);
            SWEEPING = l.findVarHandle(Stripe.class, "sweeping", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        linkCallSites();
    }

    /**
     * Runs every VarHandle call site of a link, a leave and a sweep's step once, here, at class
     * initialisation: a call site links (allocating) on its first run, and a link is a thread's first act,
     * where an {@code OutOfMemoryError} in a full heap would end the thread before its task, its count
     * taken ({@link CarrierPool#liveBody}). A linked site stays linked (the sweep's first step otherwise came
     * at a stripe's 8th push, inside an allocation storm: StartOutOfMemoryTest).
     */
    private static void linkCallSites() {
        LiveThreads once = new LiveThreads(1, 1, true); // a sweep's step at every push
        Thread t = Thread.currentThread();
        Entry a = new Entry(), b = new Entry();
        once.link(a, t); // the push, and a step over a live top
        once.leave(a);
        once.link(b, t); // a step unlinking the cleared entry below a live top
        once.leave(b);
        once.sweepNow(); // a step taking a cleared top off the head
        if (once.entries() != 0) throw new ExceptionInInitializerError("the live set's sweep left " + once.entries() + " entries");
    }

    /** A stripe's sweep takes a step every this many pushes on it (a power of two). */
    static final int SWEEP_EVERY = 8;
    /** The entries a sweep's step visits at most: four a push, twice the pushes' entries, so a pass outruns them. */
    static final int SWEEP_STEP = 32;

    /**
     * One live thread. Made before the thread begins, by the code that makes the thread (so that what
     * runs at its start allocates nothing: {@link CarrierPool#liveBody}); linked once, cleared once.
     */
    public static final class Entry {
        /** The thread; set before the push (published by it), cleared by a volatile store as it ends, never set again. */
        volatile Thread thread;
        /** The entry below; written before the push, then only by its stripe's sweeper (further down: see the class comment). */
        Entry next;

        /** An entry for a thread not yet begun (public for the concurrency tests' stand-ins of a thread). */
        public Entry() { }
    }

    /** One stripe's stack, padded so that two stripes' heads do not share a cache line. */
    static final class Stripe {
        @SuppressWarnings("unused") // padding: keeps the previous stripe's fields off this head's line
        private long p0, p1, p2, p3, p4, p5, p6, p7;
        /** The top of the stack: pushed by CAS; a cleared top is taken off only by CAS (the sweeper's). */
        volatile Entry head;
        /**
         * Pushes, counted to time the sweep's steps: a plain count, written by the pusher just after its CAS won
         * this line. Racing pushers may lose an increment; that only moves a step.
         */
        int pushes;
        /**
         * Where the sweep goes on: the last entry its walk kept (never unlinked while it is this), or null to
         * start a pass at the head. The sweeper's only: written and read under the try-lock, whose CAS and
         * volatile release order it from one sweeper to the next.
         */
        Entry kept;
        /** The sweeper's try-lock: one CAS false → true, a volatile store back. */
        volatile boolean sweeping;
    }

    private final Stripe[] stripes;
    private final int sweepEvery;
    /** False only in the negative control: a cleared top is taken off by a plain store, as a naive sweep would. */
    private final boolean casesTheHead;

    /** @param carriers the pool's carrier threads: four stripes each, rounded up to a power of two (at most 1024) */
    LiveThreads(int carriers) {
        this(stripesFor(carriers), SWEEP_EVERY, true);
    }

    /**
     * {@code stripes} and {@code sweepEvery} powers of two ({@code sweepEvery} 0: no sweep but {@link #sweepNow});
     * {@code casesTheHead} false only in the negative control.
     */
    LiveThreads(int stripes, int sweepEvery, boolean casesTheHead) {
        if (Integer.bitCount(stripes) != 1 || (sweepEvery != 0 && Integer.bitCount(sweepEvery) != 1)) {
            throw new IllegalArgumentException("stripes and sweepEvery must be powers of two: " + stripes + ", " + sweepEvery);
        }
        this.stripes = new Stripe[stripes];
        for (int i = 0; i < stripes; i++) this.stripes[i] = new Stripe();
        this.sweepEvery = sweepEvery;
        this.casesTheHead = casesTheHead;
    }

    private static int stripesFor(int carriers) {
        int n = 1;
        while (n < 4 * Math.max(1, carriers) && n < 1024) n <<= 1;
        return n;
    }

    private Stripe stripeOf(Thread t) { return stripes[(int) t.threadId() & (stripes.length - 1)]; }

    /** {@code t} is live, under the entry {@code e} made for it: no allocation, so nothing here fails for want of memory. */
    void link(Entry e, Thread t) {
        Stripe s = stripeOf(t);
        THREAD.set(e, t); // plain: published by the push below
        Entry h;
        do {
            h = s.head; // volatile
            e.next = h; // plain: published by the push
        } while (!HEAD.compareAndSet(s, h, e)); // the push: volatile CAS, the entry's publication
        if (sweepEvery != 0 && (++s.pushes & (sweepEvery - 1)) == 0) trySweep(s); // plain: racy by design (see Stripe.pushes)
    }

    /** {@code e}'s thread ended: one volatile store to its own entry (before the pool's count goes down; see the class comment). */
    void leave(Entry e) {
        e.thread = null; // volatile: a walk that reads it after this does not find the thread
    }

    /** Takes a step of {@code s}'s sweep unless another thread sweeps it now. */
    private void trySweep(Stripe s) {
        if (s.sweeping || !SWEEPING.compareAndSet(s, false, true)) return; // volatile CAS: one sweeper a stripe
        try {
            step(s);
        } finally {
            s.sweeping = false; // volatile: the next sweeper sees this one's writes of next and kept
        }
    }

    /** Visits up to {@link #SWEEP_STEP} entries of {@code s} from where its sweep stopped, unlinking the cleared ones (the sweeper only). */
    private void step(Stripe s) {
        int budget = SWEEP_STEP;
        Entry pred = s.kept;
        if (pred == null) { // a new pass, from the head
            Entry top = s.head; // volatile: every entry below it is visible
            while (top != null && top.thread == null && budget > 0) { // a cleared top: off the head only by CAS, so a racing push stays
                budget--;
                Entry below = top.next;
                if (casesTheHead) {
                    if (!HEAD.compareAndSet(s, top, below)) break; // a push came: this top is the next pass's
                } else {
                    s.head = below; // negative control: overwrites a push that came since the read
                }
                top = below;
            }
            if (top == null) return; // the stack is empty: the next step starts a pass again
            pred = top;
            budget--;
        }
        for (Entry q = pred.next; q != null && budget > 0; q = pred.next) {
            budget--;
            if (q.thread == null) {
                pred.next = q.next; // plain: only this sweeper writes next below the head, to an entry further down
            } else {
                pred = q;
            }
        }
        s.kept = pred.next == null ? null : pred; // the bottom reached: the next step starts a pass at the head
    }

    /** Whether {@code t} is live here: one stripe's walk (close asks once). */
    boolean contains(Thread t) {
        for (Entry e = stripeOf(t).head; e != null; e = e.next) if (e.thread == t) return true; // head volatile, then the push's publication
        return false;
    }

    /** Up to {@code max} live threads, stripe by stripe (a thread that begins or ends meanwhile may be missed or named). */
    List<Thread> some(int max) {
        List<Thread> out = new ArrayList<>(max);
        for (Stripe s : stripes) {
            for (Entry e = s.head; e != null && out.size() < max; e = e.next) {
                Thread t = e.thread; // volatile: null once its thread ended
                if (t != null) out.add(t);
            }
            if (out.size() >= max) break;
        }
        return out;
    }

    /** A step of every stripe's sweep not taken now (the concurrency tests' sweeper, racing a push). */
    void sweepNow() {
        for (Stripe s : stripes) trySweep(s);
    }

    /** The entries on every stripe, live and cleared (tests: the sweep's bound). */
    int entries() {
        int n = 0;
        for (Stripe s : stripes) for (Entry e = s.head; e != null; e = e.next) n++;
        return n;
    }
}
