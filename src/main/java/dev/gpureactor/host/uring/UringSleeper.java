package dev.gpureactor.host.uring;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Sleeper;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * The io-uring executor's deadline sleep: {@link #sleepUntil} is one {@code IORING_OP_TIMEOUT}
 * with a nanosecond timespec on the thread's own {@link Ring}, so the sleep ends when the kernel's
 * hrtimer fires, with no timer-slack rounding (a {@code parkNanos} is rounded up by the thread's
 * slack, 50 µs by default).
 *
 * <p><b>Refusals.</b> A timeout op that completes with anything other than {@code -ETIME}, or an
 * {@code io_uring_enter} that fails, is a refusal: that sleep runs as a thread sleep instead
 * ({@link LockSupport#parkNanos} to the deadline, as {@link Sleeper#system()} does), and
 * {@link #failedTimeouts()} counts it, so a ring that stops working degrades to the plain sleep
 * and says so, instead of failing the wait. Each sleep tries the ring again: a refusal costs that
 * sleep, not the ring.
 *
 * <p><b>One thread.</b> The sleeper and its ring belong to the thread that opened it: the parker
 * opens it on its own (platform) thread, sleeps on it, and closes it. The counters have that one
 * writer and are volatile, so any thread may read them.
 *
 * <p><b>Clock.</b> The deadline is on {@code clock}, which must tick in real nanoseconds (the
 * system clock, or one offset from it); the ring's timeout is relative, computed from the clock
 * just before submission. The kernel timer never fires early, so the sleep does not return before
 * the deadline unless it was interrupted; the caller still re-reads the clock, as {@link Sleeper}
 * allows. An interrupt does not cut a ring sleep short (the thread is in a system call, and no
 * signal is sent), and neither does {@link LockSupport#unpark}: unlike {@link Sleeper#system()},
 * this sleep cannot be ended early by another thread. An interrupt is seen between slices of at
 * most {@link #MAX_SLICE_NANOS} and thrown as {@link InterruptedException}.
 */
public final class UringSleeper implements Sleeper, AutoCloseable {
    /** The timeout op: the completion result for a relative sleep, or a thrown refusal. */
    @FunctionalInterface
    interface TimeoutOp {
        int timeout(long nanos);
    }

    /**
     * The longest single ring sleep: a longer deadline is slept in slices of this, so an interrupt
     * is seen within it (a thread in {@code io_uring_enter} does not see one). Parker sleeps are
     * far shorter, so for them a sleep is one op.
     */
    public static final long MAX_SLICE_NANOS = 100_000_000L;

    private final Clock clock;
    private final Ring ring;
    private final TimeoutOp op;
    private volatile long timeouts;
    private volatile long failedTimeouts;
    private volatile String lastRefusal;

    UringSleeper(Clock clock, Ring ring, TimeoutOp op) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ring = ring;
        this.op = Objects.requireNonNull(op, "op");
    }

    /**
     * {@return a sleeper on a fresh ring of {@link Ring#DEFAULT_ENTRIES} entries, owned by the calling thread,
     * with deadlines on {@link Clock#system()}}
     *
     * @throws ReactorException {@link dev.gpureactor.core.ErrorCode#NativeUnavailable} when the
     *     kernel refuses the ring; resolve the executor kind with {@link UringProbe} first
     */
    public static UringSleeper open() {
        return open(Clock.system());
    }

    /**
     * {@link #open()} with deadlines on {@code clock} (real nanoseconds).
     *
     * @param clock the clock
     * @return the sleeper
     */
    public static UringSleeper open(Clock clock) {
        Ring r = Ring.open();
        return new UringSleeper(clock, r, r::timeout);
    }

    @Override
    public void sleepUntil(long atNanos) throws InterruptedException {
        long left;
        while ((left = atNanos - clock.nanos()) > 0) {
            if (Thread.interrupted()) throw new InterruptedException();
            String refusal;
            try {
                int res = op.timeout(Math.min(left, MAX_SLICE_NANOS));
                refusal = res == Ring.TIMEOUT_EXPIRED ? null
                        : "IORING_OP_TIMEOUT completed with " + res + " (" + Sys.errnoName(-res) + "), not -ETIME";
            } catch (ReactorException e) {
                refusal = e.getMessage();
            }
            if (refusal == null) {
                timeouts++; // single writer: the owner thread
                continue;
            }
            failedTimeouts++;
            lastRefusal = refusal;
            while ((left = atNanos - clock.nanos()) > 0) {
                LockSupport.parkNanos(left);
                if (Thread.interrupted()) throw new InterruptedException();
            }
        }
        if (Thread.interrupted()) throw new InterruptedException();
    }

    /**
     * Ring timeout ops that expired as expected (one per sleep, or per slice of a long sleep).
     *
     * @return the count
     */
    public long timeouts() { return timeouts; }

    /**
     * Sleeps whose timeout op the ring refused, and that ran as a thread sleep instead.
     *
     * @return the count
     */
    public long failedTimeouts() { return failedTimeouts; }

    /** {@return what the last refusal said, if there was one} */
    public Optional<String> lastRefusal() { return Optional.ofNullable(lastRefusal); }

    /** {@return the ring, when this sleeper owns one} */
    public Optional<Ring> ring() { return Optional.ofNullable(ring); }

    /** Closes the ring (owner thread only). */
    @Override
    public void close() {
        if (ring != null) ring.close();
    }

    @Override
    public String toString() {
        return "UringSleeper(" + (ring == null ? "injected op" : ring) + ", " + timeouts + " timeouts, "
                + failedTimeouts + " refused)";
    }
}
