package dev.gpureactor.host.uring;

import static dev.gpureactor.host.uring.Uapi.*;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One Linux io_uring, driven by hand through FFM: {@code io_uring_setup} and three {@code mmap}ed
 * regions ({@link RingMaps}), and {@code io_uring_enter}. No liburing.
 *
 * <p>It offers the one wait the host needs, synchronous: {@link #timeout(long)} submits one
 * {@code IORING_OP_TIMEOUT} with a relative nanosecond {@code __kernel_timespec}, then waits in
 * {@code io_uring_enter(min_complete=1, IORING_ENTER_GETEVENTS)} until its completion is reaped.
 * The kernel arms a plain hrtimer for it, so unlike {@code nanosleep}, {@code futex} or
 * {@code poll} timeouts it gets no timer-slack rounding. Its expected result is {@code -ETIME}.
 *
 * <p><b>One thread.</b> A ring belongs to the thread that opened it (the parker owns its ring):
 * every method checks that, and the scratch memory lives in a
 * confined arena, so a second thread fails loudly instead of racing on the SQ tail, which has one
 * writer by design. Use a platform thread: a virtual thread would pin its carrier in
 * {@code io_uring_enter}. A thread blocked in {@code io_uring_enter} does not see
 * {@link Thread#interrupt()} (no signal is sent); every wait here is bounded by its own timeout.
 *
 * <p><b>Memory ordering</b> (the kernel's side is in {@code io_uring/io_uring.c}):
 * <ul>
 *   <li>SQ: this thread fills the SQE and the SQ array slot with plain stores, then stores the SQ
 *       tail with <i>release</i>; the kernel loads the tail with acquire, so it sees a complete
 *       SQE. The kernel advances the SQ head with release after it has read the SQEs; this thread
 *       loads it with <i>acquire</i> before reusing a slot, so it never overwrites an SQE the
 *       kernel is still reading.
 *   <li>CQ: the kernel writes a CQE, then stores the CQ tail with release; this thread loads the
 *       tail with <i>acquire</i>, so the CQE's fields it then reads are complete. It stores the CQ
 *       head with <i>release</i> only after reading them, so the kernel cannot reuse the slot
 *       under the read.
 *   <li>Without {@code IORING_SETUP_SQPOLL} the {@code io_uring_enter} system call orders all of
 *       this anyway; the atomics make the ring correct without leaning on that.
 * </ul>
 *
 * <p><b>Invariants.</b> Between calls no op is in flight: each method reaps every completion it
 * caused before it returns. CQEs are matched by a per-call {@code user_data}, so a stray CQE is
 * discarded, never mistaken for another op's. If {@code io_uring_enter} fails in a way that may
 * leave an op submitted or queued, the ring is marked broken and every later call fails with
 * {@link ErrorCode#Backend}; a broken ring is only good for {@link #close()}.
 */
public final class Ring implements AutoCloseable {
    /** Entries of a ring made by {@link #open()}: 8. */
    public static final int DEFAULT_ENTRIES = 8;

    /** The completion result of a timeout op that expired: {@code -ETIME}. */
    public static final int TIMEOUT_EXPIRED = -Sys.ETIME;

    private static final VarHandle U32 = ValueLayout.JAVA_INT.varHandle();

    private final Thread owner;
    private final Arena arena;
    private final MemorySegment capture;
    private final MemorySegment ts;
    /** The descriptor and the kernel's mappings, unmade by {@link #close()}. */
    private final RingMaps maps;
    private final int fd;
    private final int features;
    private final int sqEntries;
    private final int cqEntries;
    private final MemorySegment sq, cq, sqes;
    private final long sqHead, sqTail, sqArray, cqHead, cqTail, cqCqes;
    private final int sqMask, cqMask;

    /** This thread's copies of the indices it alone advances (SQ tail, CQ head). */
    private int sqTailLocal, cqHeadLocal;
    private long nextUserData = 1;
    /** SQEs published but not yet consumed by io_uring_enter. */
    private int pending;
    private boolean closed;
    private String broken;

    // the op the current call waits for, and its result
    private long want;
    private int res;
    private boolean got;

    private Ring(Thread owner, Arena arena, MemorySegment capture, MemorySegment params, RingMaps maps) {
        this.owner = owner;
        this.arena = arena;
        this.capture = capture;
        this.ts = arena.allocate(KERNEL_TIMESPEC);
        this.maps = maps;
        this.fd = maps.fd();
        this.features = params.get(ValueLayout.JAVA_INT, P_FEATURES);
        this.sqEntries = params.get(ValueLayout.JAVA_INT, P_SQ_ENTRIES);
        this.cqEntries = params.get(ValueLayout.JAVA_INT, P_CQ_ENTRIES);
        // Views of the kernel's mappings, bound to the confined arena: after close() an access
        // fails with IllegalStateException instead of touching unmapped memory.
        this.sq = maps.sq(arena);
        this.cq = maps.cq(arena);
        this.sqes = maps.sqes(arena);
        long so = P_SQ_OFF, co = P_CQ_OFF;
        this.sqHead = u32(params, so + SO_HEAD);
        this.sqTail = u32(params, so + SO_TAIL);
        this.sqArray = u32(params, so + SO_ARRAY);
        this.sqMask = sq.get(ValueLayout.JAVA_INT, u32(params, so + SO_RING_MASK));
        this.cqHead = u32(params, co + CO_HEAD);
        this.cqTail = u32(params, co + CO_TAIL);
        this.cqCqes = u32(params, co + CO_CQES);
        this.cqMask = cq.get(ValueLayout.JAVA_INT, u32(params, co + CO_RING_MASK));
        this.sqTailLocal = (int) U32.getAcquire(sq, sqTail);
        this.cqHeadLocal = (int) U32.getAcquire(cq, cqHead);
    }

    private static long u32(MemorySegment s, long off) {
        return Integer.toUnsignedLong(s.get(ValueLayout.JAVA_INT, off));
    }

    /** {@return a ring of {@link #DEFAULT_ENTRIES} entries, owned by the calling thread} */
    public static Ring open() {
        return open(DEFAULT_ENTRIES);
    }

    /**
     * {@return a ring of {@code entries} SQ entries (the kernel rounds up to a power of two), owned by the calling
     * thread}
     *
     * @param entries the entries
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} ("io_uring", why) when the
     *     kernel refuses the ring (see {@link UringProbe#reason(int)}) or FFM cannot bind libc
     */
    public static Ring open(int entries) {
        Opened o = tryOpen(entries);
        if (o.ring() != null) return o.ring();
        throw new ReactorException(ErrorCode.NativeUnavailable, "io_uring", o.why());
    }

    /** A ring, or why not: the failing step and its errno (0 when FFM itself is unavailable). */
    record Opened(Ring ring, String step, int errno, String why) {}

    static Opened tryOpen(int entries) {
        return tryOpen(entries, false);
    }

    /**
     * {@code separateMaps}: map the CQ ring on its own even where the kernel offers a single
     * mapping, as a kernel before 5.4 requires; the kernel still serves both offsets, so a test can
     * run that path here.
     */
    static Opened tryOpen(int entries, boolean separateMaps) {
        if (entries < 1 || entries > 32768) {
            throw new ReactorException(ErrorCode.InvalidArgument, "entries", entries, "1..32768");
        }
        var un = Sys.unavailable();
        if (un.isPresent()) return new Opened(null, "ffm", 0, un.get());
        Arena arena = Arena.ofConfined();
        RingMaps maps = null;
        try {
            MemorySegment capture = Sys.captureBuffer(arena);
            MemorySegment params = arena.allocate(PARAMS); // zeroed: no flags, no SQPOLL
            RingMaps.Made made = RingMaps.map(capture, params, entries, separateMaps);
            if (made.maps() == null) {
                arena.close();
                return new Opened(null, made.step(), made.errno(), made.step() + " failed: " + UringProbe.reason(made.errno()));
            }
            maps = made.maps();
            return new Opened(new Ring(Thread.currentThread(), arena, capture, params, maps), null, 0, null);
        } catch (RuntimeException | Error e) {
            // Nothing above throws once FFM is bound; if something does, leak nothing.
            if (maps != null) maps.unmapAndClose();
            if (arena.scope().isAlive()) arena.close();
            throw e;
        }
    }

    /** {@return the SQ entries the kernel granted (a power of two at least the requested count)} */
    public int entries() { return sqEntries; }

    /** {@return the CQ entries the kernel granted (twice the SQ entries unless asked otherwise)} */
    public int completionEntries() { return cqEntries; }

    /** {@return {@code io_uring_params.features} as the kernel reported them} */
    public int features() { return features; }

    /**
     * {@return whether the SQ and CQ rings share one mapping (the kernel offers {@code IORING_FEAT_SINGLE_MMAP},
     * and it was used)}
     */
    public boolean singleMmap() { return maps.single(); }

    /** {@return the thread this ring belongs to} */
    public Thread owner() { return owner; }

    /** {@return whether the ring was closed} */
    public boolean isClosed() { return closed; }

    /**
     * Sleeps in the kernel for {@code nanos} (relative) as one {@code IORING_OP_TIMEOUT} and
     * returns its completion result: {@link #TIMEOUT_EXPIRED} ({@code -ETIME}) when it expired,
     * which is the only expected result; anything else is a refusal (a negative errno).
     *
     * @param nanos the time in nanoseconds
     * @return the completion's result: {@link #TIMEOUT_EXPIRED}, or a negative errno
     * @throws ReactorException {@link ErrorCode#InvalidArgument} for a negative duration, a closed
     *     ring or a call from another thread; {@link ErrorCode#Backend} when
     *     {@code io_uring_enter} fails or the ring is broken
     */
    public int timeout(long nanos) {
        if (nanos < 0) throw new ReactorException(ErrorCode.InvalidArgument, "nanos", nanos, ">= 0");
        return timeoutRaw(nanos / 1_000_000_000L, nanos % 1_000_000_000L);
    }

    /** {@link #timeout} with the timespec's fields as given: a test can make the kernel refuse it. */
    int timeoutRaw(long sec, long nsec) {
        checkUsable();
        ts.set(ValueLayout.JAVA_LONG, TS_SEC, sec);
        ts.set(ValueLayout.JAVA_LONG, TS_NSEC, nsec);
        long ud = nextUserData++;
        MemorySegment sqe = nextSqe();
        sqe.set(ValueLayout.JAVA_BYTE, SQE_OPCODE, IORING_OP_TIMEOUT);
        sqe.set(ValueLayout.JAVA_INT, SQE_FD, -1);
        sqe.set(ValueLayout.JAVA_LONG, SQE_ADDR, ts.address());
        sqe.set(ValueLayout.JAVA_INT, SQE_LEN, 1);           // one timespec
        sqe.set(ValueLayout.JAVA_LONG, SQE_OFF, 0L);         // count 0: a pure timer, no completion count
        sqe.set(ValueLayout.JAVA_INT, SQE_TIMEOUT_FLAGS, 0); // relative, CLOCK_MONOTONIC
        sqe.set(ValueLayout.JAVA_LONG, SQE_USER_DATA, ud);
        publishSqes(1);
        await(ud, "IORING_OP_TIMEOUT");
        return res;
    }

    /** Unmaps the rings and closes the ring's file descriptor. Owner thread only; a second close does nothing. */
    @Override
    public void close() {
        if (closed) return;
        checkOwner();
        closed = true;
        arena.close(); // the views die first, then the memory under them
        maps.unmapAndClose();
    }

    @Override
    public String toString() {
        return "io_uring(fd " + fd + ", " + sqEntries + "/" + cqEntries + " entries"
                + (closed ? ", closed" : broken != null ? ", broken" : "") + ")";
    }

    // ---- submission and completion --------------------------------------------------------------

    private void checkOwner() {
        Thread me = Thread.currentThread();
        if (me != owner) {
            throw new ReactorException(ErrorCode.InvalidArgument, "thread", me.getName(),
                    "the ring's owner thread " + owner.getName() + " (a ring belongs to one thread)");
        }
    }

    private void checkUsable() {
        checkOwner();
        if (closed) throw new ReactorException(ErrorCode.InvalidArgument, "ring", "closed", "an open ring");
        if (broken != null) {
            throw new ReactorException(ErrorCode.Backend, "io_uring", "io_uring_enter", -1, "broken",
                    "an earlier failure left the ring unusable: " + broken);
        }
    }

    /** The next free SQE, zeroed. Only called with nothing in flight, so a free slot exists. */
    private MemorySegment nextSqe() {
        int head = (int) U32.getAcquire(sq, sqHead); // the kernel is done with SQEs before head
        if (sqTailLocal - head >= sqEntries) {
            throw new IllegalStateException("SQ full with nothing in flight: head " + head + ", tail " + sqTailLocal);
        }
        int idx = sqTailLocal & sqMask;
        sq.set(ValueLayout.JAVA_INT, sqArray + (long) idx * Integer.BYTES, idx);
        sqTailLocal++;
        MemorySegment sqe = sqes.asSlice((long) idx * SQE_SIZE, SQE_SIZE);
        sqe.fill((byte) 0);
        return sqe;
    }

    /** Hands the SQEs filled since the last publish to the kernel: one release store of the tail. */
    private void publishSqes(int n) {
        U32.setRelease(sq, sqTail, sqTailLocal);
        pending = n;
    }

    /** Submits what is pending and waits until the CQE with user_data {@code ud} is reaped; its result lands in {@link #res}. */
    private void await(long ud, String op) {
        want = ud;
        got = false;
        while (true) {
            reap();
            if (got) return;
            long r = Sys.syscall(capture, Sys.NR.ioUringEnter(), fd, pending, 1, IORING_ENTER_GETEVENTS, 0, 0);
            if (r >= 0) {
                pending -= (int) Math.min(r, pending);
                continue;
            }
            int e = Sys.errno(capture);
            if (e == Sys.EINTR) continue; // a signal cut the wait short; the op is still armed
            // Anything else may leave SQEs queued or ops in flight: the ring cannot be trusted.
            broken = op + ": io_uring_enter " + Sys.errnoName(e);
            throw new ReactorException(ErrorCode.Backend, "io_uring", "io_uring_enter", -e, Sys.errnoName(e),
                    "waiting for " + op + " failed; the ring is now unusable");
        }
    }

    /** Consumes every CQE in the ring; keeps the wanted one's result, drops strays. */
    private void reap() {
        int tail = (int) U32.getAcquire(cq, cqTail); // CQEs before tail are fully written
        int head = cqHeadLocal;
        if (head == tail) return;
        for (; head != tail; head++) {
            long off = cqCqes + (long) (head & cqMask) * CQE_SIZE;
            long ud = cq.get(ValueLayout.JAVA_LONG, off + CQE_USER_DATA);
            if (ud == want) {
                res = cq.get(ValueLayout.JAVA_INT, off + CQE_RES);
                got = true;
            }
        }
        cqHeadLocal = head;
        U32.setRelease(cq, cqHead, head); // the slots are read; the kernel may reuse them
    }
}
