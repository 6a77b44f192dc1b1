package dev.gpureactor.loom;

import dev.gpureactor.parker.SnapshotPark;
import dev.gpureactor.core.Capability;
import dev.gpureactor.core.Declared;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.WaitPlan;
import dev.gpureactor.core.Warning;
import dev.gpureactor.park.TimerSlack;
import dev.gpureactor.park.WordWait;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a reactor runs, resolved once at its build from the builder and the host: the executor kind
 * and the scheduler (each with its fallback's coded warning, or a coded refusal when strict), and the
 * parkers' park (the hardware word wait, else the pure-Java park with its warning; a chosen slice that
 * the plan's park bound would cut is warned too).
 */
final class ReactorChoices {
    final Declared.Resolved<ExecutorKind> kind;
    final Declared.Resolved<Scheduler> scheduler;
    final SnapshotPark linePark;
    /** What the parkers park with: the hardware word wait's description, or the fallback's. */
    final String parkLabel;
    /** At most this many lines share a parker ({@link GpuReactor.Builder#linesPerParker}, else by the park). */
    final int linesPerParker;

    /** Resolves {@code b}'s settings here, raising each fallback's warning to {@code warn}. */
    ReactorChoices(GpuReactor.Builder b, Consumer<Warning> warn) {
        HostCaps caps = b.caps != null ? b.caps : GpuReactor.probe();
        if (b.deadlineSleeper == null && caps.ioUring().isPresent()) {
            caps = new HostCaps(caps.parkers(), caps.carriers(), caps.wordWait(),
                    Capability.missing("no io_uring deadline sleeper was given to the builder (Builder.deadlineSleeper)"));
        }
        this.kind = ExecutorKind.resolve(b.kind, b.strictness, caps);
        this.scheduler = Declared.resolve(b.scheduler, b.strictness, caps);
        kind.warning().ifPresent(warn);
        scheduler.warning().ifPresent(warn);
        WaitPlan plan = b.plan;
        WordWait.Probe park = WordWait.probe();
        TimerSlack.supported(); // loaded here, at the build, not first by a parker thread when the heap may be full
        park.warnings().forEach(warn);
        if (!park.available() && plan instanceof WaitPlan.FlagWait && kind.running() != ExecutorKind.NAIVE) {
            warn.accept(Warning.of(ErrorCode.ParkFallback, plan.label(), "a hardware word wait (umwait, mwaitx or wfe)",
                    park.note(), "the pure-Java park (spin around the prediction, then parkNanos slices)"));
        }
        if (b.parkSliceChosen && plan instanceof WaitPlan.FlagWait f && b.parkSliceNanos > f.parkNanos()) {
            // A slice never outlasts the park's bound: the chosen one would be cut to park_us without a word.
            warn.accept(Warning.of(ErrorCode.InvalidArgument, "parkSlice", b.parkSliceNanos / 1000 + " µs",
                    "at most the plan's park_us (" + f.parkNanos() / 1000 + " µs), which bounds every park: each slice is cut to it;"
                            + " raise park_us with the slice"));
        }
        Optional<WordWait> hardware = b.hardwarePark ? park.wordWait() : Optional.empty(); // off: asked for, no warning
        this.linePark = SnapshotPark.of(hardware, b.parkSliceNanos);
        this.parkLabel = hardware.map(WordWait::describe).orElse(GpuReactor.FALLBACK_PARK);
        this.linesPerParker = b.linesPerParker > 0 ? b.linesPerParker
                : hardware.isPresent() ? GpuReactor.HARDWARE_LINES_PER_PARKER : GpuReactor.FALLBACK_LINES_PER_PARKER;
    }
}
