package dev.gpureactor.soak;

import dev.gpureactor.json.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a soak saw, and its invariants judged against it. Every figure is a count over the whole
 * run; {@link #invariants()} is the verdict, {@link #text()} and {@link #json()} print it.
 *
 * @param config          how it ran
 * @param host            the machine, in words (cores, JDK, OS)
 * @param reactors        each reactor's kind and plan, in the order futures were drawn from them
 * @param elapsedNanos    wall time of the rounds
 * @param roundsRun       rounds that ran (fewer than asked only when the soak had to stop)
 * @param stopped         why the soak stopped early, or empty
 * @param futures         futures created
 * @param observed        futures whose outcome the soak observed (all of them, when nothing hung)
 * @param injected        futures by fate (every fate but {@code complete} is an injected fault)
 * @param outcomes        observed outcomes by kind (completed, cancelled, timed out, interrupted, failed)
 * @param waits           joins by way of waiting (join, join(Duration), get, get(timeout), stage, onComplete)
 * @param platformJoiners joins made from platform threads (the others from virtual threads)
 * @param wakes           lost, duplicated and wrong wakes, mismatched outcomes, with samples
 * @param lostWords       WordNeverWritten warnings expected (one per lost word) and seen for them
 * @param registrationsLeft the largest registration count found after a round settled (must be 0)
 * @param parkers         parker threads started and died, and ParkerDied warnings
 * @param pins            JFR jdk.VirtualThreadPinned events during the rounds
 * @param heapAfterGc     heap used after a full GC at the end of each round, in bytes
 * @param offHeap         the lines' off-heap account
 * @param close           the close phase ({@link ClosePhase}), when it ran
 * @param carrierCompensations extra carriers the reactors' watches started for carriers blocked by a pinned
 *                        virtual thread (not judged: a count of what the pools absorbed)
 */
public record SoakReport(SoakConfig config, String host, List<String> reactors, long elapsedNanos, int roundsRun,
                         String stopped, long futures, long observed, Map<Fate, Long> injected, Map<String, Long> outcomes,
                         Map<String, Long> waits, long platformJoiners, Wakes wakes, LostWords lostWords,
                         long registrationsLeft, Parkers parkers, PinWatch.Pins pins, List<Long> heapAfterGc,
                         OffHeap offHeap, java.util.Optional<ClosePhase.Result> close, long carrierCompensations) {
    /** Heap growth below this is noise whatever the spread (the JIT and JFR allocate as they go). */
    public static final long HEAP_FLOOR_BYTES = 2L << 20;
    /** Rounds the heap trend needs: the first is warm-up, the rest are fitted. */
    public static final int HEAP_ROUNDS = 10;

    public SoakReport {
        reactors = List.copyOf(reactors);
        injected = Map.copyOf(injected);
        outcomes = Map.copyOf(outcomes);
        waits = Map.copyOf(waits);
        heapAfterGc = List.copyOf(heapAfterGc);
    }

    /**
     * @param lost       a future whose device had finished but that never settled within the settle
     *                   bound, or that settled while its joiner never woke
     * @param duplicated a readback run twice, or an outcome delivered twice to one joiner or callback
     * @param wrong      a wake before the word reached the target (readback saw an unreached word or a
     *                   missing payload), or a WordNeverWritten warning for a word that was written
     * @param mismatched an outcome other than the fate's, joiners that disagree, or a state that changed
     * @param hung       a gated wait that its cancel, timeout or interrupt did not end
     * @param stacks     where the threads were at the first lost or hung wait: the stuck joiners, the
     *                   carriers and the parkers, a few frames each, then the virtual threads (each
     *                   mounted one with its carrier or parker, the rest grouped) and the JDK's
     *                   unblocker and unparkers (empty when none was lost or hung)
     */
    public record Wakes(long lost, long duplicated, long wrong, long mismatched, long hung, List<String> samples,
                        List<String> stacks) {
        public Wakes {
            samples = List.copyOf(samples);
            stacks = List.copyOf(stacks);
        }
    }

    public record Parkers(long started, long died, long diedWarnings) {}

    public record LostWords(long expected, long seen) {}

    /**
     * @param linesMade    lines allocated
     * @param linesFreed   lines whose memory was released
     * @param bytesMade    off-heap bytes allocated for lines
     * @param bytesFreed   off-heap bytes released
     * @param codedReads   reads of a closed line that gave the coded LineClosed
     * @param linesChecked lines closed and checked
     * @param faults       what went wrong, if anything
     */
    public record OffHeap(long linesMade, long linesFreed, long bytesMade, long bytesFreed, long codedReads,
                          long linesChecked, List<String> faults) {
        public OffHeap {
            faults = List.copyOf(faults);
        }
    }

    public enum Verdict { PASS, FAIL, NOT_JUDGED }

    public record Invariant(String name, Verdict verdict, String detail) {}

    /** The least-squares heap trend over the rounds after the first. */
    public record HeapTrend(boolean judged, double slopeBytesPerRound, double growthBytes, double residualSd,
                            double boundBytes, long min, long max) {
        static HeapTrend of(List<Long> heap) {
            if (heap.size() < HEAP_ROUNDS) return new HeapTrend(false, 0, 0, 0, 0, 0, 0);
            List<Long> h = heap.subList(1, heap.size());
            int n = h.size();
            double mx = (n - 1) / 2.0, my = h.stream().mapToLong(Long::longValue).average().orElse(0);
            double sxy = 0, sxx = 0;
            for (int i = 0; i < n; i++) {
                sxy += (i - mx) * (h.get(i) - my);
                sxx += (i - mx) * (i - mx);
            }
            double slope = sxy / sxx;
            double ss = 0;
            for (int i = 0; i < n; i++) {
                double r = h.get(i) - (my + slope * (i - mx));
                ss += r * r;
            }
            double sd = Math.sqrt(ss / Math.max(1, n - 2));
            double growth = slope * (n - 1);
            double bound = Math.max(HEAP_FLOOR_BYTES, 3 * sd);
            long min = h.stream().mapToLong(Long::longValue).min().orElse(0);
            long max = h.stream().mapToLong(Long::longValue).max().orElse(0);
            return new HeapTrend(true, slope, growth, sd, bound, min, max);
        }
    }

    public HeapTrend heapTrend() { return HeapTrend.of(heapAfterGc); }

    /** The invariants, each judged. */
    public List<Invariant> invariants() {
        List<Invariant> out = new ArrayList<>();
        boolean all = observed == futures && wakes.mismatched() == 0 && wakes.hung() == 0 && stopped.isEmpty();
        out.add(new Invariant("every future reached exactly one terminal state, the expected one", verdict(all),
                "%d of %d observed, %d mismatched, %d hung%s".formatted(observed, futures, wakes.mismatched(), wakes.hung(),
                        stopped.isEmpty() ? "" : "; stopped: " + stopped)));
        out.add(new Invariant("no lost wake", verdict(wakes.lost() == 0), wakes.lost() + " lost"));
        out.add(new Invariant("no duplicated wake", verdict(wakes.duplicated() == 0), wakes.duplicated() + " duplicated"));
        out.add(new Invariant("no wrong wake, and a WordNeverWritten warning for exactly each lost word",
                verdict(wakes.wrong() == 0 && lostWords.expected() == lostWords.seen()),
                "%d wrong; warnings %d of %d expected".formatted(wakes.wrong(), lostWords.seen(), lostWords.expected())));
        out.add(new Invariant("registration count back to 0 after every round", verdict(registrationsLeft == 0),
                "largest left after a round: " + registrationsLeft));
        out.add(new Invariant("no parker thread died", verdict(parkers.died() == 0 && parkers.diedWarnings() == 0),
                "%d started, %d died, %d ParkerDied warnings".formatted(parkers.started(), parkers.died(), parkers.diedWarnings())));
        out.add(pins.unavailable().isPresent()
                ? new Invariant("no carrier pinned (JFR jdk.VirtualThreadPinned)", Verdict.NOT_JUDGED, pins.unavailable().get())
                : new Invariant("no carrier pinned (JFR jdk.VirtualThreadPinned)", verdict(pins.events() == 0 && roundsRun > 1),
                        (roundsRun > 1 ? pins.events() + " events over rounds 2.." + roundsRun : "needs a round after the warm-up")
                                + (pins.samples().isEmpty() ? "" : ": " + String.join("; ", pins.samples()))
                                + "; apart: warm-up round " + pins.warmup() + " (first use of classes), the JDK's interrupt handshake "
                                + pins.interruptHandshake() + " (injected interrupts)"));
        HeapTrend t = heapTrend();
        out.add(!t.judged()
                ? new Invariant("heap after GC stable across rounds", Verdict.NOT_JUDGED,
                        "needs " + HEAP_ROUNDS + " rounds, ran " + heapAfterGc.size())
                : new Invariant("heap after GC stable across rounds", verdict(t.growthBytes() <= t.boundBytes()),
                        String.format(Locale.ROOT, "%.1f..%.1f MiB over rounds 2..%d; trend %+.1f KiB/round, %+.2f MiB in all (bound %.2f MiB = max(%d MiB, 3 sd))",
                                mib(t.min()), mib(t.max()), heapAfterGc.size(), t.slopeBytesPerRound() / 1024, t.growthBytes() / (1 << 20),
                                t.boundBytes() / (1 << 20), HEAP_FLOOR_BYTES >> 20)));
        boolean offOk = offHeap.linesMade() == offHeap.linesFreed() && offHeap.bytesMade() == offHeap.bytesFreed()
                && offHeap.codedReads() == offHeap.linesChecked() && offHeap.linesChecked() == offHeap.linesMade()
                && offHeap.faults().isEmpty();
        out.add(new Invariant("off-heap memory returned, every line closed, a closed line never read", verdict(offOk),
                "%d lines made, %d freed; %d bytes allocated, %d freed; %d of %d reads after close coded LineClosed%s".formatted(
                        offHeap.linesMade(), offHeap.linesFreed(), offHeap.bytesMade(), offHeap.bytesFreed(), offHeap.codedReads(),
                        offHeap.linesChecked(), offHeap.faults().isEmpty() ? "" : "; " + String.join("; ", offHeap.faults()))));
        close.ifPresent(c -> out.add(new Invariant(
                "close under load: every joiner answered (value or coded ShutDown), no live thread stranded, carriers left, executor terminated",
                verdict(c.ok()), c.detail())));
        return out;
    }

    /** Every invariant passed (one that could not be judged does not pass). */
    public boolean ok() {
        return invariants().stream().allMatch(i -> i.verdict() == Verdict.PASS);
    }

    private static Verdict verdict(boolean ok) { return ok ? Verdict.PASS : Verdict.FAIL; }

    private static double mib(long b) { return b / (double) (1 << 20); }

    public long faults() {
        return injected.entrySet().stream().filter(e -> e.getKey().isFault()).mapToLong(Map.Entry::getValue).sum();
    }

    public String text() {
        StringBuilder b = new StringBuilder();
        double secs = elapsedNanos / 1e9;
        b.append(String.format(Locale.ROOT, "gar soak: %d futures in %d round(s) on %d lines (%d slots), %.1f s (paced to %d s), seed %d%n",
                futures, roundsRun, config.lines(), config.lines() * 8, secs, config.seconds(), config.seed()));
        b.append("host: ").append(host).append('\n');
        for (String r : reactors) b.append("reactor: ").append(r).append('\n');
        if (carrierCompensations > 0) b.append("carriers compensated for a blocked carrier: ").append(carrierCompensations).append('\n');
        b.append("outcomes observed: ").append(join(outcomes)).append('\n');
        b.append(String.format(Locale.ROOT, "faults injected: %d (%s)%n", faults(),
                injected.entrySet().stream().filter(e -> e.getKey().isFault()).sorted(Map.Entry.comparingByKey())
                        .map(e -> e.getKey().label() + " " + e.getValue()).collect(Collectors.joining(", "))));
        b.append("waits: ").append(join(waits)).append("; from platform threads ").append(platformJoiners).append('\n');
        b.append(String.format(Locale.ROOT, "wakes: lost %d, duplicated %d, wrong %d; outcome mismatches %d, hung %d%n",
                wakes.lost(), wakes.duplicated(), wakes.wrong(), wakes.mismatched(), wakes.hung()));
        for (String s : wakes.samples()) b.append("  ").append(s).append('\n');
        if (!wakes.stacks().isEmpty()) b.append("threads at the first lost or hung wait:\n");
        for (String s : wakes.stacks()) b.append("  ").append(s).append('\n');
        if (pins.warmup() > 0) {
            b.append("pins in the warm-up round (not judged): ").append(pins.warmup()).append('\n');
            for (String s : pins.warmupSamples()) b.append("  ").append(s).append('\n');
        }
        if (pins.interruptHandshake() > 0) {
            b.append("pins in the JDK's interrupt handshake (not judged): ").append(pins.interruptHandshake()).append('\n');
            for (String s : pins.interruptSamples()) b.append("  ").append(s).append('\n');
        }
        b.append("invariants:\n");
        for (Invariant i : invariants()) {
            b.append(String.format("  [%s] %s: %s%n", switch (i.verdict()) { case PASS -> " ok "; case FAIL -> "FAIL"; case NOT_JUDGED -> "n/a "; },
                    i.name(), i.detail()));
        }
        b.append(ok() ? "result: PASS\n" : "result: FAIL\n");
        return b.toString();
    }

    private static String join(Map<String, Long> m) {
        return m.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    public String json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("futures", futures);
        m.put("observed", observed);
        m.put("rounds", roundsRun);
        m.put("lines", config.lines());
        m.put("seconds", elapsedNanos / 1e9);
        m.put("pacedSeconds", config.seconds());
        m.put("seed", config.seed());
        m.put("host", host);
        m.put("reactors", reactors);
        m.put("stopped", stopped);
        Map<String, Object> inj = new LinkedHashMap<>();
        for (Fate f : Fate.values()) inj.put(f.label(), injected.getOrDefault(f, 0L));
        m.put("byFate", inj);
        m.put("faults", faults());
        m.put("outcomes", new java.util.TreeMap<>(outcomes));
        m.put("waits", new java.util.TreeMap<>(waits));
        m.put("platformJoiners", platformJoiners);
        m.put("lostWakes", wakes.lost());
        m.put("duplicatedWakes", wakes.duplicated());
        m.put("wrongWakes", wakes.wrong());
        m.put("mismatched", wakes.mismatched());
        m.put("hung", wakes.hung());
        m.put("samples", wakes.samples());
        m.put("stacks", wakes.stacks());
        m.put("lostWordWarningsExpected", lostWords.expected());
        m.put("lostWordWarningsSeen", lostWords.seen());
        m.put("registrationsLeft", registrationsLeft);
        m.put("carrierCompensations", carrierCompensations);
        m.put("parkersStarted", parkers.started());
        m.put("parkersDied", parkers.died());
        m.put("parkerDiedWarnings", parkers.diedWarnings());
        m.put("pinnedEvents", pins.events());
        m.put("pinnedEventsWarmup", pins.warmup());
        m.put("pinnedEventsInterruptHandshake", pins.interruptHandshake());
        m.put("pinUnavailable", pins.unavailable().orElse(""));
        m.put("heapAfterGcBytes", heapAfterGc);
        m.put("offHeapBytesAllocated", offHeap.bytesMade());
        m.put("offHeapBytesFreed", offHeap.bytesFreed());
        m.put("linesMade", offHeap.linesMade());
        m.put("linesFreed", offHeap.linesFreed());
        close.ifPresent(c -> {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("waits", c.waits());
            o.put("inFlightAtClose", c.inFlightAtClose());
            o.put("values", c.values());
            o.put("shutDown", c.shutDown());
            o.put("wrong", c.wrong());
            o.put("unanswered", c.unanswered());
            o.put("closeMillis", c.closeNanos() / 1e6);
            o.put("liveThreads", c.liveThreads());
            o.put("carriersLeft", c.carriersLeft());
            o.put("executorTerminated", c.executorTerminated());
            m.put("closeUnderLoad", o);
        });
        List<Object> inv = new ArrayList<>();
        for (Invariant i : invariants()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("name", i.name());
            o.put("verdict", i.verdict().name());
            o.put("detail", i.detail());
            inv.add(o);
        }
        m.put("invariants", inv);
        m.put("ok", ok());
        return Json.write(m) + "\n";
    }
}
