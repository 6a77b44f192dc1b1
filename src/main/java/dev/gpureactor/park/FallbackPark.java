package dev.gpureactor.park;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.SpinSlice;

import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The park that runs everywhere: a short spin with {@link Thread#onSpinWait()}, then one
 * {@link LockSupport#parkNanos} slice, within the bound ({@link SpinSlice}, the code the backend's
 * word park runs too). It is a plain value, in the manner of an Agrona
 * idle strategy, so the parker chooses how long to spin and how finely to sleep.
 *
 * <p><b>One slice per call.</b> A call spins for up to {@code spinNanos}, sleeps once for up to
 * {@code sliceNanos}, and returns; the parker's loop makes the slices. It must return after every OS
 * sleep because an {@link LockSupport#unpark} that lands as a slice times out cannot be told from the
 * timeout (the wake consumes the permit either way): a park that slept on would lose it and run to its
 * bound. So {@code unpark} of the parking thread always ends the park: during the slice it wakes it;
 * before or during the spin its permit makes the slice return at once. An interrupt ends it the same way
 * (the interrupt status stays set). A parker that spins only on its first call after a wake passes
 * {@code new FallbackPark(0, slice)} for the calls that follow.
 *
 * <p><b>Why spin, then sleep.</b> No OS sleep ends on a store, so while sleeping a store is seen only at
 * the end of the slice; an OS wake costs 10–30 µs here and oversleeps by the timer slack (50 µs by
 * default; a parker thread sets 1 ns with {@link TimerSlack#set}). The spin catches stores that come
 * soon; {@code sliceNanos} trades the delay of seeing a store against the CPU of waking up.
 *
 * <p><b>Memory ordering.</b> All synchronisation is in {@code ready}, which reads the line with acquire
 * loads; the spin and the slice only decide when to read it again.
 *
 * @param spinNanos  how long to spin before sleeping; 0 for none
 * @param sliceNanos the longest OS sleep of one call, at least 1
 */
public record FallbackPark(long spinNanos, long sliceNanos) implements LinePark {
    /**
     * 20 µs of spin (about one OS wake here), then a 50 µs slice (with 1 ns timer slack an oversleep of
     * about 25 µs p50 on these machines; docs/PARK.md).
     */
    public static final FallbackPark DEFAULT = new FallbackPark(20_000, 50_000);

    public FallbackPark {
        if (spinNanos < 0) throw new ReactorException(ErrorCode.InvalidArgument, "spinNanos", spinNanos, ">= 0");
        if (sliceNanos < 1) throw new ReactorException(ErrorCode.InvalidArgument, "sliceNanos", sliceNanos, ">= 1");
    }

    /**
     * Spins, then sleeps one slice, within {@code boundNanos}; returns {@code ready}'s last answer.
     *
     * @throws ReactorException {@link ErrorCode#LineClosed} when the line is closed
     */
    @Override
    public boolean park(CompletionLine line, Predicate<? super CompletionLine> ready, long boundNanos) {
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(ready, "ready");
        line.segment(); // a closed line fails here, as it does for the hardware park
        return SpinSlice.park(spinNanos, sliceNanos, boundNanos, () -> ready.test(line), this);
    }

    @Override
    public String describe() {
        return "fallback: spin " + spinNanos + " ns, then one parkNanos slice of up to " + sliceNanos + " ns per park";
    }
}
