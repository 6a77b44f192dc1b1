package dev.gpureactor.carrier;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Warning;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A carrier pool's end: the retirement of its carriers, once the pool's control word says closed
 * with nothing live or queued ({@link CarrierPool}), and the close's bounded wait for it.
 */
final class PoolExit {
    private final CarrierPool pool;
    private final Carriers carriers;
    /** Null for a pool without carriers (jcstress). */
    private final CarrierWatch watch;
    private final LiveThreads live;
    private final Consumer<Warning> warnings;
    /** Counted down once, by the update that retired the carriers. */
    private final CountDownLatch retired = new CountDownLatch(1);

    PoolExit(CarrierPool pool, Carriers carriers, CarrierWatch watch, LiveThreads live, Consumer<Warning> warnings) {
        this.pool = pool;
        this.carriers = carriers;
        this.watch = watch;
        this.live = live;
        this.warnings = warnings;
    }

    /** Retires the carriers; run once, by the pool's retiring update. */
    void retire() {
        carriers.retire();
        retired.countDown();
        if (watch != null) watch.stop(); // after the count-down: the watch reads isRetired
    }

    /** Whether the carriers were retired. */
    boolean isRetired() { return retired.getCount() == 0; }

    /** {@link CarrierPool#awaitExit}: the retirement, then the carrier threads' exit, within {@code timeout}. */
    boolean awaitExit(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!retired.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) return false;
        return carriers.awaitExit(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** {@link CarrierPool#runsHere}: one of the pool's live virtual threads, or a carrier. */
    boolean runsHere(Thread t) {
        return (t.isVirtual() && live.contains(t)) || pool.isCarrier(t);
    }

    /**
     * The rest of {@link CarrierPool#close(Duration)} once the closed bit is set: waits up to
     * {@code grace} for the retirement (not at all on one of the pool's live threads or a carrier,
     * which would wait for itself), then, within the same grace, for the carrier threads and the watch to end;
     * on the close that set the bit ({@code firstClose}), warns {@link ErrorCode#LiveAtClose} when the retirement
     * did not come.
     */
    boolean awaitRetired(Duration grace, boolean firstClose) {
        if (runsHere(Thread.currentThread())) return isRetired();
        long deadline = System.nanoTime() + grace.toNanos();
        boolean done;
        try {
            done = retired.await(grace.toNanos(), TimeUnit.NANOSECONDS);
            if (done && carriers.awaitExit(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS) && watch != null) watch.awaitLeft(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done = isRetired();
        }
        if (!done && firstClose) {
            int n = pool.liveThreads();
            String names = live.some(8).stream().map(Thread::toString).collect(Collectors.joining(", "));
            warnings.accept(Warning.of(ErrorCode.LiveAtClose, "carrier pool", n, n > 8 ? names + ", ..." : names));
        }
        return done;
    }
}
