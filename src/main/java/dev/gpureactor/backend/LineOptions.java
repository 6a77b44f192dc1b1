package dev.gpureactor.backend;

import dev.gpureactor.core.Durations;
import dev.gpureactor.core.Warning;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Settings of a device-mapped line (CUDA or HIP).
 *
 * @param settleTimeout how long closing waits for the line's streams to settle before it leaks the
 *                      page (with the coded warning {@code LineLeaked}) instead of freeing it; from 0
 *                      up to {@link Durations#MAX}, else a coded {@code InvalidArgument}
 * @param warnings      where the line's coded warnings go (besides its own {@code warnings()} list)
 * @param park          how ports of this line park on their word
 */
public record LineOptions(Duration settleTimeout, Consumer<Warning> warnings, WordPark park) {
    /** Default settle timeout: 10 s. */
    public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(10);

    private static final System.Logger LOG = System.getLogger("dev.gpureactor.backend");

    /** Checks the components: a settle timeout of 0 or more, a sink and a park. */
    public LineOptions {
        Objects.requireNonNull(settleTimeout, "settleTimeout");
        Objects.requireNonNull(warnings, "warnings");
        Objects.requireNonNull(park, "park");
        Durations.nonNegativeNanos("settleTimeout", settleTimeout);
    }

    /**
     * 10 s to settle, warnings logged at WARNING to {@code dev.gpureactor.backend}, the spin-then-park park.
     *
     * @return the defaults
     */
    public static LineOptions defaults() {
        return new LineOptions(DEFAULT_SETTLE, LineOptions::log, WordPark.spinThenPark());
    }

    /**
     * {@return these options with the settle timeout {@code d}}
     *
     * @param d the timeout
     */
    public LineOptions withSettleTimeout(Duration d) { return new LineOptions(d, warnings, park); }

    /**
     * {@return these options with the warning sink {@code sink}}
     *
     * @param sink where coded warnings go
     */
    public LineOptions withWarnings(Consumer<Warning> sink) { return new LineOptions(settleTimeout, sink, park); }

    /**
     * {@return these options with the word park {@code p}}
     *
     * @param p the park
     */
    public LineOptions withPark(WordPark p) { return new LineOptions(settleTimeout, warnings, p); }

    private static void log(Warning w) {
        LOG.log(System.Logger.Level.WARNING, w.message());
    }
}
