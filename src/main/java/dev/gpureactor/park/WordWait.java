package dev.gpureactor.park;

import dev.gpureactor.loader.NativeAccess;
import dev.gpureactor.loader.NativeLoader;
import dev.gpureactor.core.Capability;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The hardware park on a {@link CompletionLine}: the CPU arms a monitor on the line, re-checks it, and
 * sleeps in hardware until the line is written or the bound passes ({@code umonitor/umwait},
 * {@code monitorx/mwaitx}, {@code ldxr} + {@code wfe/wfet}; see {@code native/park/garpark.c}).
 *
 * <p><b>A value is proof.</b> The only way to get a {@code WordWait} is {@link #probe()}, which returns
 * one only when the native library loaded and the CPU (probed through CPUID or getauxval, never by trying
 * an instruction) has the instructions; the library itself refuses to park otherwise. Probe once and keep
 * the value: {@link #probe()} does exactly that for the process (its one piece of static state).
 *
 * <p><b>No lost store.</b> A park snapshots the eight words (acquire loads), then evaluates
 * {@code ready}, then parks until some word differs from the snapshot. A store that {@code ready} did not
 * see came after the snapshot's load of that word (both loads are ordered in the word's modification
 * order), so the native park sees the word differ and returns at once or is woken by the monitor.
 *
 * <p><b>Memory safety.</b> The line's memory is passed to the downcall as a segment: for a line that owns
 * its memory, FFM keeps the line's arena alive for the duration of the call, so a concurrent close fails
 * instead of freeing memory under the park. The downcall is not linked critical: while it blocks the
 * thread is in native state and safepoints proceed. Run it on a platform thread (the parker): a virtual
 * thread in a downcall pins its carrier for the whole park.
 *
 * <p>A hardware sleep does not give the core back to the OS: to the scheduler the thread is running. It
 * saves power and the sibling hyperthread's resources, not CPU time.
 */
public final class WordWait implements LinePark {
    /** The hardware wait a {@code WordWait} runs. */
    public enum Flavour {
        /** x86-64 WAITPKG: {@code umonitor} + {@code umwait} (C0.2) to an absolute TSC deadline. */
        UMWAIT(NativePark.GARPARK_UMWAIT),
        /** AMD MONITORX: {@code monitorx} + {@code mwaitx} with its timer, a relative TSC-rate count. */
        MWAITX(NativePark.GARPARK_MWAITX),
        /** aarch64 {@code ldxr} + {@code wfe}, bounded by the kernel's event stream. */
        WFE(NativePark.GARPARK_WFE),
        /** aarch64 FEAT_WFxT: {@code ldxr} + {@code wfet} to a counter deadline. */
        WFET(NativePark.GARPARK_WFET);

        private final int code;

        Flavour(int code) { this.code = code; }

        /** The {@code GARPARK_*} number of the header. */
        public int code() { return code; }

        static Optional<Flavour> of(int code) {
            for (Flavour f : values()) if (f.code == code) return Optional.of(f);
            return Optional.empty();
        }
    }

    /**
     * What {@link #probe()} found: a usable wait, or why there is none.
     *
     * @param wordWait the hardware park, when there is one
     * @param note     how it was found (flavour, counter rate), or why there is none
     * @param rateHz   the rate of the counter the native deadlines use (TSC, CNTFRQ); 0 when unknown
     * @param warnings coded warnings met on the way: {@link ErrorCode#NativeUnavailable} for a missing or
     *                 broken library, {@link ErrorCode#NativeDirUnsafe} for an unsafe extraction directory
     */
    public record Probe(Optional<WordWait> wordWait, String note, long rateHz, List<Warning> warnings) {
        public Probe {
            Objects.requireNonNull(wordWait, "wordWait");
            Objects.requireNonNull(note, "note");
            warnings = List.copyOf(warnings);
        }

        public boolean available() { return wordWait.isPresent(); }

        /** Why there is no hardware park; empty when there is one. */
        public Optional<String> why() { return available() ? Optional.empty() : Optional.of(note); }

        /** The capability, as {@link dev.gpureactor.core.HostCaps#wordWait()} records it. */
        public Capability capability() { return wordWait.isPresent() ? Capability.present() : Capability.missing(note); }

        /** The hardware park, or {@code fallback} when there is none. */
        public LinePark orElse(FallbackPark fallback) {
            Objects.requireNonNull(fallback, "fallback");
            return wordWait.<LinePark>map(w -> w).orElse(fallback);
        }

        private static Probe missing(String why, List<Warning> warnings) {
            return new Probe(Optional.empty(), why, 0, warnings);
        }
    }

    /** Platforms the native park is built for. */
    private static final Set<String> PLATFORMS = Set.of("linux-x86_64", "linux-aarch64");
    private static final int NOTE_CAP = 256;

    private final NativePark lib;
    private final Flavour flavour;
    private final long rateHz;
    private final String note;

    private WordWait(NativePark lib, Flavour flavour, long rateHz, String note) {
        this.lib = lib;
        this.flavour = flavour;
        this.rateHz = rateHz;
        this.note = note;
    }

    /**
     * This process's probe: run once, on first use, with the {@link NativeLoader#defaultLoader()}.
     * Where {@link NativeAccess#granted() native access} is not enabled it loads nothing and reports
     * why: the park is an optimisation, and loading it would print the JDK's restricted-method warning
     * on every run that never asked for native code (the pure-Java park runs instead).
     */
    public static Probe probe() {
        return Once.PROBE;
    }

    /** The lazy holder: class initialisation runs the probe exactly once and publishes it safely. */
    private static final class Once {
        static final boolean CPU_ADVERTISES = readCpuAdvertises(); // first: PROBE reads it
        static final Probe PROBE = NativeAccess.granted() ? probe(NativeLoader.defaultLoader())
                : Probe.missing(CPU_ADVERTISES ? NativeAccess.why()
                        : "this CPU's flags (/proc/cpuinfo) list neither waitpkg nor monitorx, so enabling native access would not add one", List.of());
    }

    /**
     * Whether this CPU may offer a hardware word wait, read without native code: on aarch64 always
     * ({@code wfe}); on Linux x86 where {@code /proc/cpuinfo}'s flags list {@code waitpkg} or
     * {@code monitorx}; and wherever that cannot be read (unknown: it may). So a hint to enable native
     * access is given only where it can turn the hardware park on. Probed once.
     *
     * @return false only where the CPU's flags are known to lack both
     */
    public static boolean cpuAdvertises() {
        return Once.CPU_ADVERTISES;
    }

    private static boolean readCpuAdvertises() {
        String arch = System.getProperty("os.arch", "");
        if (arch.equals("aarch64")) return true;
        if (!arch.equals("amd64") && !arch.equals("x86_64")) return true;
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("flags")).findFirst()
                    .map(l -> l.contains(" waitpkg") || l.contains(" monitorx")).orElse(true);
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /**
     * A fresh probe through {@code loader}, not kept: for {@code gar probe} and for tests of the loading
     * path. Never throws for a missing or broken library; that is a warning in the result.
     */
    public static Probe probe(NativeLoader loader) {
        Objects.requireNonNull(loader, "loader");
        String platform = NativeLoader.platform();
        if (!PLATFORMS.contains(platform)) {
            return Probe.missing("no user-mode word wait on this target (" + platform + "; aarch64 or x86-64 Linux only)", List.of());
        }
        NativePark lib;
        try {
            lib = NativePark.bind(loader.extract(NativePark.LIBRARY));
        } catch (ReactorException e) {
            return Probe.missing("native library not loadable: " + e.getMessage(), List.of(e.asWarning()));
        } catch (RuntimeException | LinkageError e) {
            ReactorException coded = new ReactorException(ErrorCode.NativeUnavailable, e, NativePark.LIBRARY, String.valueOf(e));
            return Probe.missing("native library not loadable: " + coded.getMessage(), List.of(coded.asWarning()));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment rate = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment text = arena.allocate(NOTE_CAP);
            int code = lib.garpark_probe(rate, text, NOTE_CAP);
            long rateHz = rate.get(ValueLayout.JAVA_LONG, 0);
            String note = text.getString(0, StandardCharsets.UTF_8);
            if (code == NativePark.GARPARK_NONE) return new Probe(Optional.empty(), note, rateHz, List.of());
            Optional<Flavour> flavour = Flavour.of(code);
            if (flavour.isEmpty()) {
                Warning w = Warning.of(ErrorCode.NativeUnavailable, NativePark.LIBRARY, "garpark_probe returned unknown flavour " + code);
                return Probe.missing("native library not loadable: " + w.message(), List.of(w));
            }
            return new Probe(Optional.of(new WordWait(lib, flavour.get(), rateHz, note)), note, rateHz, List.of());
        }
    }

    public Flavour flavour() { return flavour; }

    /** The rate of the counter the native deadlines are counted in (TSC or CNTFRQ), in Hz. */
    public long rateHz() { return rateHz; }

    /** The binding this park calls, e.g. for its tiny helpers. */
    public NativePark library() { return lib; }

    /**
     * Parks until {@code ready} holds, a store to the line wakes the core, or {@code boundNanos} pass;
     * returns {@code ready}'s last answer. Any store to any word wakes it, so one parker watches all eight
     * slots; it may return {@code false} early. Not interruptible (it is bounded instead).
     *
     * @throws ReactorException {@link ErrorCode#LineClosed} when the line is closed
     */
    @Override
    public boolean park(CompletionLine line, Predicate<? super CompletionLine> ready, long boundNanos) {
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(ready, "ready");
        MemorySegment words = line.segment();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment snapshot = arena.allocate(CompletionLine.BYTES, Long.BYTES);
            for (int i = 0; i < CompletionLine.WORDS; i++) snapshot.setAtIndex(ValueLayout.JAVA_LONG, i, line.word(Slot.of(i)));
            if (ready.test(line)) return true;
            if (boundNanos <= 0) return false;
            int r = lib.garpark_park(words, snapshot, boundNanos);
            if (r < 0) {
                // Cannot happen for a probed flavour and a 64-byte aligned line; never spin on it silently.
                throw new ReactorException(ErrorCode.NativeUnavailable, NativePark.LIBRARY,
                    "garpark_park returned " + r + " for flavour " + flavour);
            }
        }
        return ready.test(line);
    }

    @Override
    public String describe() {
        return "hardware " + flavour.name().toLowerCase(java.util.Locale.ROOT) + ": " + note;
    }

    @Override
    public String toString() { return describe(); }
}
