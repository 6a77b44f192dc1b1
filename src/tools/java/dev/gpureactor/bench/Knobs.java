package dev.gpureactor.bench;

import dev.gpureactor.core.WaitPlan;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The reactor's tuning knobs a benchmark run may set; an empty value keeps the library default, so
 * the default run measures exactly what {@code GpuReactor.open()} builds.
 *
 * @param parkSpinNanos {@code GpuReactor.Builder.parkSpin}: how long a parker spins around a predicted wake
 * @param marginMicros  the {@code margin_us} of the deadline plan of every {@code predict} strategy
 * @param carriers      carrier threads
 * @param parkSliceNanos {@code GpuReactor.Builder.parkSlice}: the pure-Java park's OS sleep between two looks
 * @param carrierTurns  {@code GpuReactor.Builder.carrierTurns}: whether carriers take a parked parker's turn between tasks
 */
public record Knobs(OptionalLong parkSpinNanos, OptionalLong marginMicros, OptionalInt carriers, OptionalLong parkSliceNanos,
                    Optional<Boolean> carrierTurns) {
    /** The library's own defaults. */
    public static final Knobs DEFAULTS = new Knobs(OptionalLong.empty(), OptionalLong.empty(), OptionalInt.empty(), OptionalLong.empty(),
            Optional.empty());

    /** The first three knobs; the park slice and carrier turns at the library's defaults. */
    public Knobs(OptionalLong parkSpinNanos, OptionalLong marginMicros, OptionalInt carriers) {
        this(parkSpinNanos, marginMicros, carriers, OptionalLong.empty(), Optional.empty());
    }

    /** The default plan (what {@code GpuReactor.builder()} uses), with this run's margin if one is set. */
    public WaitPlan defaultPlan() {
        return WaitPlan.parse("flag:park_us=100,backstop_us=1000+predict:margin_us=" + marginMicros.orElse(100)
                + ",min_sleep_us=20,max_sleep_us=50000,window=8");
    }

    /** True when every knob is the library default. */
    public boolean isDefault() { return equals(DEFAULTS); }

    /** The knobs that differ from the defaults, as text ("defaults" when none). */
    public String describe() {
        StringBuilder b = new StringBuilder();
        parkSpinNanos.ifPresent(v -> b.append("parkSpin=").append(v / 1000).append("us "));
        marginMicros.ifPresent(v -> b.append("margin=").append(v).append("us "));
        carriers.ifPresent(v -> b.append("carriers=").append(v).append(' '));
        parkSliceNanos.ifPresent(v -> b.append("parkSlice=").append(v / 1000).append("us "));
        carrierTurns.ifPresent(v -> b.append("carrierTurns=").append(v).append(' '));
        return b.isEmpty() ? "defaults" : b.toString().trim();
    }
}
