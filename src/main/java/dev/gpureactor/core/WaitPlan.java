package dev.gpureactor.core;

import java.util.Objects;
import java.util.Optional;

/**
 * How one wait is spent: the park it runs and, except for {@link Block}, an optional deadline sleep
 * in front of it. The text grammar (all times in microseconds, every key present exactly once):
 *
 * <pre>
 * plan     := park | park "+predict:" deadline        (not after "block")
 * park     := "block" | "poll" | "flag:park_us=" N ",backstop_us=" N
 * deadline := "margin_us=" N ",min_sleep_us=" N ",max_sleep_us=" N ",window=" N
 * </pre>
 *
 * <p>A plan that exists is in range: park 1..10,000 µs, backstop 1..1,000,000 µs, margin and sleeps
 * 0..60 s, window 1..16, min_sleep ≤ max_sleep, every time in whole microseconds. {@link #label()}
 * prints the text {@link #parse} reads, exactly, for every plan that exists.
 */
public sealed interface WaitPlan permits WaitPlan.Block, WaitPlan.QueryPoll, WaitPlan.FlagWait {
    /** Largest {@code park_us}: 10 ms. */
    long PARK_US_MAX = 10_000;
    /** Largest {@code backstop_us}: 1 s. */
    long BACKSTOP_US_MAX = 1_000_000;

    /** The vendor's blocking wait ({@code cuStreamSynchronize}); nothing to sleep in front of. */
    record Block() implements WaitPlan {
        @Override
        public Optional<DeadlinePlan> predict() { return Optional.empty(); }
    }

    /**
     * Query the port's status until done.
     *
     * @param predict the prediction settings
     */
    record QueryPoll(Optional<DeadlinePlan> predict) implements WaitPlan {
        /** Checks {@code predict} is not null. */
        public QueryPoll {
            Objects.requireNonNull(predict, "predict");
        }
    }

    /**
     * Park on the word the device stores behind its work, at most {@code parkNanos} per park, and
     * query the port (the error authority) at least every {@code backstopNanos}.
     *
     * @param parkNanos the park, in nanoseconds
     * @param backstopNanos the backstop, in nanoseconds
     * @param predict the prediction settings
     */
    record FlagWait(long parkNanos, long backstopNanos, Optional<DeadlinePlan> predict) implements WaitPlan {
        /** Checks the bounds the grammar states (whole microseconds, positive, within the maxima), else a coded {@link ErrorCode#InvalidArgument}. */
        public FlagWait {
            Objects.requireNonNull(predict, "predict");
            if (parkNanos <= 0 || parkNanos > PARK_US_MAX * 1000) {
                throw new ReactorException(ErrorCode.InvalidArgument, "park_ns", parkNanos, "1.." + PARK_US_MAX * 1000);
            }
            if (backstopNanos <= 0 || backstopNanos > BACKSTOP_US_MAX * 1000) {
                throw new ReactorException(ErrorCode.InvalidArgument, "backstop_ns", backstopNanos, "1.." + BACKSTOP_US_MAX * 1000);
            }
            if (parkNanos % 1000 != 0) {
                throw new ReactorException(ErrorCode.InvalidArgument, "park_ns", parkNanos, "whole microseconds");
            }
            if (backstopNanos % 1000 != 0) {
                throw new ReactorException(ErrorCode.InvalidArgument, "backstop_ns", backstopNanos, "whole microseconds");
            }
        }
    }

    /** {@return the deadline sleep in front of the park, if any} */
    Optional<DeadlinePlan> predict();

    /** {@return the canonical text, which {@link #parse} reads back to an equal plan} */
    default String label() {
        return WaitPlanText.label(this);
    }

    /**
     * Reads a plan from its text.
     *
     * @param text the text
     * @return the plan
     * @throws ReactorException {@link ErrorCode#InvalidPlan} naming the text (escaped, and cut past 80 characters), the
     *     position and the first fault
     */
    static WaitPlan parse(String text) {
        return WaitPlanText.parse(text);
    }

    /** {@return the recommended plan: park on the word, query every millisecond} */
    static WaitPlan recommended() {
        return new FlagWait(100_000, 1_000_000, Optional.empty());
    }
}
