package dev.gpureactor.host.uring;

import static dev.gpureactor.host.uring.Uapi.*;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * One Linux io_uring, driven by hand through FFM: {@code io_uring_setup}, three {@code mmap}ed
 * regions (SQ ring, CQ ring, SQE array; the rings share one mapping where the kernel offers
 * {@code IORING_FEAT_SINGLE_MMAP}), and {@code io_uring_enter}. No liburing.
 *
 * <p>It offers the two waits the host needs, each synchronous: submit, then wait in
 * {@code io_uring_enter(min_complete=1, IORING_ENTER_GETEVENTS)} until the op's completions are
 * reaped.
 * <ul>
 *   <li>{@link #timeout(long)}: one {@code IORING_OP_TIMEOUT} with a relative nanosecond
 *       {@code __kernel_timespec}. The kernel arms a plain hrtimer for it, so unlike
 *       {@code nanosleep}, {@code futex} or {@code poll} timeouts it gets no timer-slack rounding.
 *       Its expected result is {@code -ETIME}.
 *   <li>{@link #futexWait}: {@code IORING_OP_FUTEX_WAIT} (Linux 6.7+) linked to an
 *       {@code IORING_OP_LINK_TIMEOUT}, so the wait is bounded. It wakes only on an explicit futex
 *       wake ({@link #futexWake}). <b>A GPU's store into host memory wakes no futex</b>: nothing in
 *       the kernel watches the word, so this is for CPU agents (the simulated device, a CPU
 *       thread) that store and then call {@link #futexWake}. A GPU completion line is watched by the
 *       parker's word wait, not by this.
 * </ul>
 *
 * <p><b>One thread.</b> A ring belongs to the thread that opened it (the parker owns its ring):
 * every method except the static {@link #futexWake} checks that, and the scratch memory lives in a
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
@SuppressWarnings("restricted")
public final class Ring implements AutoCloseable {
    /** Entries of a ring made by {@link #open()}: 8. */
    public static final int DEFAULT_ENTRIES = 8;

    /** The completion result of a timeout op that expired: {@code -ETIME}. */
    public static final int TIMEOUT_EXPIRED = -Sys.ETIME;

    /** How a {@link #futexWait} ended. */
    public enum FutexOutcome {
        /** A futex wake ended it (or one meant for another waiter on the word): re-read the word. */
        WOKEN,
        /** The word did not hold the expected value when the kernel looked ({@code -EAGAIN}). */
        VALUE_CHANGED,
        /** The linked timeout expired first. */
        TIMED_OUT
    }

    private static final VarHandle U32 = ValueLayout.JAVA_INT.varHandle();

    private final Thread owner;
    private final Arena arena;
    private final MemorySegment capture;
    private final MemorySegment ts;
    private final int fd;
    private final int features;
    private final int sqEntries;
    private final int cqEntries;
    /** The mappings; with a single mmap the CQ ring is the SQ mapping and cqMapLen is 0 (nothing of its own to unmap). */
    private final long sqMapAddr, sqMapLen, cqMapAddr, cqMapLen, sqesMapAddr, sqesMapLen;
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

    // results of the ops the current call waits for
    private long wantA, wantB;
    private int resA, resB;
    private boolean gotA, gotB;

    private Ring(Thread owner, Arena arena, MemorySegment capture, int fd, MemorySegment params,
                 long sqMapAddr, long sqMapLen, long cqMapAddr, long cqMapLen, long sqesMapAddr, long sqesMapLen) {
        this.owner = owner;
        this.arena = arena;
        this.capture = capture;
        this.ts = arena.allocate(KERNEL_TIMESPEC);
        this.fd = fd;
        this.features = params.get(ValueLayout.JAVA_INT, P_FEATURES);
        this.sqEntries = params.get(ValueLayout.JAVA_INT, P_SQ_ENTRIES);
        this.cqEntries = params.get(ValueLayout.JAVA_INT, P_CQ_ENTRIES);
        this.sqMapAddr = sqMapAddr;
        this.sqMapLen = sqMapLen;
        this.cqMapAddr = cqMapAddr;
        this.cqMapLen = cqMapLen;
        this.sqesMapAddr = sqesMapAddr;
        this.sqesMapLen = sqesMapLen;
        // Views of the kernel's mappings, bound to the confined arena: after close() an access
        // fails with IllegalStateException instead of touching unmapped memory.
        this.sq = MemorySegment.ofAddress(sqMapAddr).reinterpret(sqMapLen, arena, null);
        this.cq = MemorySegment.ofAddress(cqMapAddr).reinterpret(cqMapAddr == sqMapAddr ? sqMapLen : cqMapLen, arena, null);
        this.sqes = MemorySegment.ofAddress(sqesMapAddr).reinterpret(sqesMapLen, arena, null);
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
        int fd = -1;
        long sqAddr = -1, cqAddr = -1, sqesAddr = -1, sqLen = 0, cqLen = 0, sqesLen = 0;
        String step = "io_uring_setup";
        MemorySegment capture = Sys.captureBuffer(arena);
        try {
            MemorySegment params = arena.allocate(PARAMS); // zeroed: no flags, no SQPOLL
            long r = Sys.syscall(capture, Sys.NR.ioUringSetup(), entries, params.address(), 0, 0, 0, 0);
            if (r < 0) return failed(arena, step, Sys.errno(capture));
            fd = (int) r;
            int feat = params.get(ValueLayout.JAVA_INT, P_FEATURES);
            int sqN = params.get(ValueLayout.JAVA_INT, P_SQ_ENTRIES);
            int cqN = params.get(ValueLayout.JAVA_INT, P_CQ_ENTRIES);
            sqLen = u32(params, P_SQ_OFF + SO_ARRAY) + (long) sqN * Integer.BYTES;
            cqLen = u32(params, P_CQ_OFF + CO_CQES) + (long) cqN * CQE_SIZE;
            boolean single = (feat & IORING_FEAT_SINGLE_MMAP) != 0 && !separateMaps;
            if (single) sqLen = cqLen = Math.max(sqLen, cqLen);
            step = "mmap of the SQ ring";
            sqAddr = Sys.mmapShared(capture, sqLen, fd, IORING_OFF_SQ_RING);
            if (sqAddr == -1) return failedAfterSetup(arena, capture, step, fd, -1, 0, -1, 0, -1, 0);
            if (single) {
                cqAddr = sqAddr;
            } else {
                step = "mmap of the CQ ring";
                cqAddr = Sys.mmapShared(capture, cqLen, fd, IORING_OFF_CQ_RING);
                if (cqAddr == -1) return failedAfterSetup(arena, capture, step, fd, sqAddr, sqLen, -1, 0, -1, 0);
            }
            step = "mmap of the SQEs";
            sqesLen = (long) sqN * SQE_SIZE;
            sqesAddr = Sys.mmapShared(capture, sqesLen, fd, IORING_OFF_SQES);
            if (sqesAddr == -1) {
                return failedAfterSetup(arena, capture, step, fd, sqAddr, sqLen,
                        single ? -1 : cqAddr, cqLen, -1, 0);
            }
            Ring ring = new Ring(Thread.currentThread(), arena, capture, fd, params,
                    sqAddr, sqLen, single ? sqAddr : cqAddr, single ? 0 : cqLen, sqesAddr, sqesLen);
            return new Opened(ring, null, 0, null);
        } catch (RuntimeException | Error e) {
            // Nothing above throws once FFM is bound; if something does, leak nothing.
            unmapAndClose(fd, sqAddr, sqLen, cqAddr == sqAddr ? -1 : cqAddr, cqLen, sqesAddr, sqesLen);
            if (arena.scope().isAlive()) arena.close();
            throw e;
        }
    }

    private static Opened failed(Arena arena, String step, int errno) {
        arena.close();
        return new Opened(null, step, errno, step + " failed: " + UringProbe.reason(errno));
    }

    private static Opened failedAfterSetup(Arena arena, MemorySegment capture, String step, int fd,
                                           long sqAddr, long sqLen, long cqAddr, long cqLen, long sqesAddr, long sqesLen) {
        int errno = Sys.errno(capture);
        unmapAndClose(fd, sqAddr, sqLen, cqAddr, cqLen, sqesAddr, sqesLen);
        return failed(arena, step, errno);
    }

    private static void unmapAndClose(int fd, long sqAddr, long sqLen, long cqAddr, long cqLen, long sqesAddr, long sqesLen) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment c = Sys.captureBuffer(a);
            if (sqesAddr != -1 && sqesLen > 0) Sys.munmap(c, sqesAddr, sqesLen);
            if (cqAddr != -1 && cqLen > 0) Sys.munmap(c, cqAddr, cqLen);
            if (sqAddr != -1 && sqLen > 0) Sys.munmap(c, sqAddr, sqLen);
            if (fd >= 0) Sys.close(c, fd);
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
    public boolean singleMmap() { return cqMapAddr == sqMapAddr; }

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
        await(1, ud, 0, "IORING_OP_TIMEOUT");
        return resA;
    }

    /**
     * {@return Waits in the kernel until a futex wake on {@code word32}, or until {@code timeoutNanos} pass,
     * whichever is first: one {@code IORING_OP_FUTEX_WAIT} (a private 32-bit futex, mask {@code
     * FUTEX_BITSET_MATCH_ANY}) linked to an {@code IORING_OP_LINK_TIMEOUT}} If the word does not hold {@code
     * expected} when the kernel queues the wait, it returns {@link FutexOutcome#VALUE_CHANGED} at once: that check
     * and the queueing are atomic against {@link #futexWake}, so a waker that stores and then wakes is never
     * missed.
     *
     * <p>Only an explicit wake ends it: a GPU store does not (see the class comment). The caller re-reads the word
     * after every outcome.
     *
     * @param word32 a native segment of at least 4 bytes, 4-byte aligned, in this process
     * @param expected what was expected
     * @param timeoutNanos the timeout, in nanoseconds
     * @throws ReactorException {@link ErrorCode#Backend} when the kernel refuses the op (before
     *     Linux 6.7: {@code -EINVAL}) or {@code io_uring_enter} fails; {@link ErrorCode#InvalidArgument}
     *     for a bad word, a negative timeout, a closed ring or a call from another thread
     */
    public FutexOutcome futexWait(MemorySegment word32, int expected, long timeoutNanos) {
        checkWord(word32);
        if (timeoutNanos < 0) throw new ReactorException(ErrorCode.InvalidArgument, "timeoutNanos", timeoutNanos, ">= 0");
        checkUsable();
        if (sqEntries < 2) throw new ReactorException(ErrorCode.InvalidArgument, "entries", sqEntries, ">= 2 for a linked wait");
        ts.set(ValueLayout.JAVA_LONG, TS_SEC, timeoutNanos / 1_000_000_000L);
        ts.set(ValueLayout.JAVA_LONG, TS_NSEC, timeoutNanos % 1_000_000_000L);
        long udWait = nextUserData++;
        long udTimeout = nextUserData++;
        MemorySegment w = nextSqe();
        w.set(ValueLayout.JAVA_BYTE, SQE_OPCODE, IORING_OP_FUTEX_WAIT);
        w.set(ValueLayout.JAVA_BYTE, SQE_FLAGS, IOSQE_IO_LINK);
        w.set(ValueLayout.JAVA_INT, SQE_FD, FUTEX2_SIZE_U32 | FUTEX2_PRIVATE); // futex2 flags live in sqe->fd
        w.set(ValueLayout.JAVA_LONG, SQE_ADDR, word32.address());
        w.set(ValueLayout.JAVA_LONG, SQE_ADDR2, Integer.toUnsignedLong(expected)); // u32 compare value
        w.set(ValueLayout.JAVA_LONG, SQE_ADDR3, FUTEX_BITSET_MATCH_ANY);
        w.set(ValueLayout.JAVA_INT, SQE_FUTEX_FLAGS, 0);   // reserved for the op, must be 0
        w.set(ValueLayout.JAVA_LONG, SQE_USER_DATA, udWait);
        MemorySegment t = nextSqe();
        t.set(ValueLayout.JAVA_BYTE, SQE_OPCODE, IORING_OP_LINK_TIMEOUT);
        t.set(ValueLayout.JAVA_INT, SQE_FD, -1);
        t.set(ValueLayout.JAVA_LONG, SQE_ADDR, ts.address());
        t.set(ValueLayout.JAVA_INT, SQE_LEN, 1);
        t.set(ValueLayout.JAVA_INT, SQE_TIMEOUT_FLAGS, 0);
        t.set(ValueLayout.JAVA_LONG, SQE_USER_DATA, udTimeout);
        publishSqes(2);
        // Both CQEs always come: the head's, and the link timeout's (-ETIME when it fired,
        // -ECANCELED when the head finished first). Waiting for both keeps "nothing in flight".
        await(2, udWait, udTimeout, "IORING_OP_FUTEX_WAIT");
        int waitRes = resA, timeoutRes = resB;
        if (waitRes == 0) return FutexOutcome.WOKEN;
        if (waitRes == -Sys.EAGAIN) return FutexOutcome.VALUE_CHANGED;
        // The link timeout fired and cancelled the wait. Its own result is -ETIME, or, for a futex
        // head, the count the futex cancel returned (Linux 6.18 posts 1): the kernel sets
        // "cancel result ?: -ETIME", and io_futex_cancel answers with how many it cancelled.
        if (waitRes == -Sys.ECANCELED && (timeoutRes == -Sys.ETIME || timeoutRes >= 0)) return FutexOutcome.TIMED_OUT;
        int bad = waitRes == -Sys.ECANCELED ? timeoutRes : waitRes;
        String op = waitRes == -Sys.ECANCELED ? "IORING_OP_LINK_TIMEOUT" : "IORING_OP_FUTEX_WAIT";
        throw new ReactorException(ErrorCode.Backend, "io_uring", op, bad, Sys.errnoName(-bad),
                bad == -Sys.EINVAL && waitRes != -Sys.ECANCELED
                        ? "the kernel refused the futex op (IORING_OP_FUTEX_WAIT needs Linux 6.7+)"
                        : "unexpected completion (wait " + waitRes + ", timeout " + timeoutRes + ")");
    }

    /**
     * Wakes up to {@code count} threads (or rings) waiting on the private 32-bit futex
     * {@code word32}, with the plain {@code futex(FUTEX_WAKE_PRIVATE)} system call; returns how
     * many it woke. Any thread may call it; it needs no ring. This is how a CPU agent (the
     * simulated device) ends a {@link #futexWait} after it stored the word; a GPU cannot call it.
     *
     * @param word32 the 32-bit word
     * @param count the count
     * @throws ReactorException {@link ErrorCode#NativeUnavailable} when FFM cannot reach libc,
     *     {@link ErrorCode#Backend} when the system call fails
     */
    public static int futexWake(MemorySegment word32, int count) {
        checkWord(word32);
        if (count < 1) throw new ReactorException(ErrorCode.InvalidArgument, "count", count, ">= 1");
        var un = Sys.unavailable();
        if (un.isPresent()) throw new ReactorException(ErrorCode.NativeUnavailable, "libc (futex)", un.get());
        try (Arena a = Arena.ofConfined()) {
            MemorySegment c = Sys.captureBuffer(a);
            long r = Sys.syscall(c, Sys.NR.futex(), word32.address(), FUTEX_WAKE | FUTEX_PRIVATE_FLAG, count, 0, 0, 0);
            if (r < 0) {
                int e = Sys.errno(c);
                throw new ReactorException(ErrorCode.Backend, "futex", "FUTEX_WAKE_PRIVATE", -e, Sys.errnoName(e), "futex(2) failed");
            }
            return (int) r;
        }
    }

    /** Unmaps the rings and closes the ring's file descriptor. Owner thread only; a second close does nothing. */
    @Override
    public void close() {
        if (closed) return;
        checkOwner();
        closed = true;
        arena.close(); // the views die first, then the memory under them
        unmapAndClose(fd, sqMapAddr, sqMapLen, cqMapAddr == sqMapAddr ? -1 : cqMapAddr, cqMapLen, sqesMapAddr, sqesMapLen);
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

    private static void checkWord(MemorySegment word32) {
        Objects.requireNonNull(word32, "word32");
        if (!word32.isNative() || word32.byteSize() < Integer.BYTES || (word32.address() & 3) != 0) {
            throw new ReactorException(ErrorCode.InvalidArgument, "word32", word32,
                    "a native segment of at least 4 bytes aligned to 4");
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

    /**
     * Submits what is pending and waits until the CQEs with user_data {@code a} (and {@code b}
     * when {@code n == 2}) are reaped; results land in {@link #resA}/{@link #resB}.
     */
    private void await(int n, long a, long b, String op) {
        wantA = a;
        wantB = n == 2 ? b : 0;
        gotA = false;
        gotB = n != 2;
        while (true) {
            reap();
            if (gotA && gotB) return;
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

    /** Consumes every CQE in the ring; keeps the results of the wanted ones, drops strays. */
    private void reap() {
        int tail = (int) U32.getAcquire(cq, cqTail); // CQEs before tail are fully written
        int head = cqHeadLocal;
        if (head == tail) return;
        for (; head != tail; head++) {
            long off = cqCqes + (long) (head & cqMask) * CQE_SIZE;
            long ud = cq.get(ValueLayout.JAVA_LONG, off + CQE_USER_DATA);
            int res = cq.get(ValueLayout.JAVA_INT, off + CQE_RES);
            if (ud == wantA) { resA = res; gotA = true; }
            else if (ud == wantB && wantB != 0) { resB = res; gotB = true; }
        }
        cqHeadLocal = head;
        U32.setRelease(cq, cqHead, head); // the slots are read; the kernel may reuse them
    }
}
