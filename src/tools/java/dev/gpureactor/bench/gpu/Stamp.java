package dev.gpureactor.bench.gpu;

/**
 * A time stamp of a sequence number, published by one thread and read by others: the observer's
 * "store {@code s} seen at t" and a waiter's "ran again after {@code s} at t".
 *
 * <p><b>Ordering.</b> {@link #publish} writes {@code at} (plain), then {@code seq} (volatile:
 * release); {@link #atIfReached} reads {@code seq} (volatile: acquire), then {@code at}. A reader that
 * finds {@code seq} at or past what it wants therefore reads the stamp written with that {@code seq}
 * or a later one, never an older one (jcstress {@code StampStress}). One writer; sequence numbers
 * only grow, in wrapping order.
 */
final class Stamp {
    /** Written before {@link #seq}; read after it. */
    private long at;
    /** The last published sequence number; the release that carries {@link #at}. */
    private volatile long seq;
    /** Test-only (jcstress {@code StampNegativeControl}): publish {@code seq} before {@code at}. */
    private final boolean unordered;

    Stamp(long initial) {
        this(initial, false);
    }

    private Stamp(long initial, boolean unordered) {
        this.seq = initial;
        this.unordered = unordered;
    }

    /** The negative control's stamp: the sequence number is published before its time. */
    static Stamp unordered(long initial) {
        return new Stamp(initial, true);
    }

    /** Publishes {@code seq} with its time {@code at}; one writer. */
    void publish(long seq, long at) {
        if (unordered) {
            this.seq = seq;
            this.at = at;
            return;
        }
        this.at = at;
        this.seq = seq; // release: at is visible to whoever reads this seq
    }

    /** The time published with {@code want} (or a later sequence number), or -1 when it is not yet published. */
    long atIfReached(long want) {
        if (seq - want < 0) return -1; // acquire: the at below is this seq's or later
        return at;
    }

    /** The last published sequence number. */
    long seq() {
        return seq;
    }
}
