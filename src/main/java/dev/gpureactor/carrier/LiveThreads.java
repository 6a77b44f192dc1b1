package dev.gpureactor.carrier;

import java.util.ArrayList;
import java.util.List;

/**
 * The carrier pool's live virtual threads by identity: only so that {@link CarrierPool#close} can
 * name what still runs ({@code LiveAtClose}) and tell a close from inside one of them. Their count,
 * which decides retirement, is the pool's ctl word, not this.
 *
 * <p><b>Shape.</b> Each thread links itself once, as it begins, and unlinks itself once, as it ends
 * (never per resume), under an entry made before it began, so its beginning cannot fail for want of
 * memory ({@link CarrierPool#liveBody}). It was a {@code ConcurrentHashMap} key set: per thread a hash
 * node, an identity hash, and two updates of the map's one shared size count, which under a fan-out of
 * thousands of woken threads was a quarter of their samples. Here a thread's {@link Entry} goes into one of a
 * power-of-two number of stripes (at least four per carrier) chosen by its thread id, a doubly
 * linked list under that stripe's own monitor: a link or an unlink is an uncontended lock and four
 * plain writes, with no shared counter and no hashing; two carriers meet on a stripe only when two
 * threads of the same stripe begin or end at the same moment. Stripes are padded apart so that two
 * stripes' locks do not share a cache line.
 *
 * <p><b>Ordering.</b> An entry's links are guarded by its stripe's monitor, which every reader takes
 * too. Nothing else is published here; {@link CarrierPool} orders the count on ctl around these
 * calls (link after the count goes up, remove before it goes down), so a thread found here is counted.
 */
public final class LiveThreads {
    /**
     * One live thread. Made before the thread begins, by the code that makes the thread (so that what
     * runs at its start allocates nothing: {@link CarrierPool#liveBody}); its fields are written by
     * {@link #link} and read under the monitor of {@link #stripe}, except {@code stripe} itself, which
     * {@link #remove} reads after the link in the same thread or behind the handover that gave it the entry.
     */
    public static final class Entry {
        Thread thread;
        Stripe stripe;
        Entry prev, next;

        /** An entry for a thread not yet begun (public for the concurrency tests' stand-ins of a thread). */
        public Entry() { }
    }

    /** One stripe's list, guarded by this object's monitor. */
    static final class Stripe {
        @SuppressWarnings("unused") // padding: keeps the next stripe's header (its lock) off this cache line
        private long p0, p1, p2, p3, p4, p5, p6, p7;
        Entry head;
    }

    private final Stripe[] stripes;

    /** @param carriers the pool's carrier threads: four stripes each, rounded up to a power of two (at most 1024) */
    LiveThreads(int carriers) {
        int n = 1;
        while (n < 4 * Math.max(1, carriers) && n < 1024) n <<= 1;
        stripes = new Stripe[n];
        for (int i = 0; i < n; i++) stripes[i] = new Stripe();
    }

    private Stripe stripeOf(Thread t) { return stripes[(int) t.threadId() & (stripes.length - 1)]; }

    /** {@code t} is live, under the entry {@code e} made for it: no allocation, so nothing here fails for want of memory. */
    void link(Entry e, Thread t) {
        Stripe s = stripeOf(t);
        synchronized (s) {
            e.thread = t;
            e.stripe = s;
            Entry h = s.head;
            e.next = h;
            if (h != null) h.prev = e;
            s.head = e;
        }
    }

    void remove(Entry e) {
        Stripe s = e.stripe;
        synchronized (s) {
            Entry p = e.prev, n = e.next;
            if (p == null) s.head = n; else p.next = n;
            if (n != null) n.prev = p;
            e.prev = e.next = null;
        }
    }

    /** Whether {@code t} is live here: one stripe's walk (close asks once). */
    boolean contains(Thread t) {
        Stripe s = stripeOf(t);
        synchronized (s) {
            for (Entry e = s.head; e != null; e = e.next) if (e.thread == t) return true;
        }
        return false;
    }

    /** Up to {@code max} live threads, stripe by stripe (a thread that begins or ends meanwhile may be missed or named). */
    List<Thread> some(int max) {
        List<Thread> out = new ArrayList<>(max);
        for (Stripe s : stripes) {
            synchronized (s) {
                for (Entry e = s.head; e != null && out.size() < max; e = e.next) out.add(e.thread);
            }
            if (out.size() >= max) break;
        }
        return out;
    }
}
