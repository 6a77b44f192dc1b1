package dev.gpureactor.bench.service;

import dev.gpureactor.loom.GpuReactor;
import dev.gpureactor.loom.Scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * How the server waits for its GPU work: one variant per way of waiting, each named by a short
 * text that {@code --modes} takes ({@link #parse}).
 *
 * <ul>
 *   <li>{@code reactor[:key=value,...]}: the library; the server's executor is
 *       {@code reactor.newExecutor()} and handlers {@code join} a {@code reactor.await(...)}. The
 *       settings go to {@link GpuReactor.Builder} through {@link #OPTIONS}, the one place a new
 *       builder option is added; {@code reactor-jdk} is {@code reactor:scheduler=jdk-default}.
 *   <li>{@code watcher[:interval=D]}: {@code Executors.newVirtualThreadPerTaskExecutor()} and one platform
 *       thread that scans every pending word every {@code D} (100 µs unless given; at most
 *       {@value #MAX_WATCHER_MILLIS} ms) and completes {@code CompletableFuture}s. The 100 µs watcher,
 *       however it is written, is the baseline the ratios are taken against ({@link #isBaseline}).
 *   <li>{@code sleep1}: the same executor, handlers polling the word with {@code Thread.sleep(1)}.
 * </ul>
 */
public sealed interface Mode {
    /** The text this mode was parsed from, as printed in the report. */
    String label();

    /** The baseline the ratios are taken against. */
    Watcher WATCHER = new Watcher("watcher", Duration.ofNanos(100_000));

    /** The longest watcher interval a mode may set: past it, a watcher is no longer a way to wait for 0.5-5 ms work. */
    long MAX_WATCHER_MILLIS = 10;

    /** Whether this is a watcher at the baseline's interval (100 µs), whatever its label. */
    default boolean isBaseline() { return this instanceof Watcher w && w.interval().equals(WATCHER.interval()); }

    /** The library, built from {@code settings} (keys of {@link #OPTIONS}, or ones the hook takes). */
    record Reactor(String label, Map<String, String> settings) implements Mode {
        public Reactor {
            Objects.requireNonNull(label, "label");
            settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        }

        /** A builder with this mode's settings applied; keys not in {@link #OPTIONS} go to {@code unknown}. */
        public GpuReactor.Builder builder(BuilderHook unknown) {
            GpuReactor.Builder b = GpuReactor.builder();
            settings.forEach((k, v) -> {
                BiConsumer<GpuReactor.Builder, String> o = OPTIONS.get(k);
                if (o != null) o.accept(b, v);
                else if (!unknown.apply(b, k, v)) {
                    throw new IllegalArgumentException("mode " + label + ": unknown setting \"" + k + "\" (known: "
                            + String.join(", ", OPTIONS.keySet()) + ")");
                }
            });
            return b;
        }
    }

    /** The JDK executor and a watcher platform thread scanning every {@code interval}. */
    record Watcher(String label, Duration interval) implements Mode {
        public Watcher {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(interval, "interval");
            if (interval.isNegative() || interval.isZero() || interval.toMillis() > MAX_WATCHER_MILLIS) {
                throw new IllegalArgumentException("mode " + label + ": interval " + interval.toNanos() + " ns is not in (0, "
                        + MAX_WATCHER_MILLIS + " ms] (e.g. interval=25us)");
            }
        }
    }

    /** The JDK executor, handlers polling the word with {@code Thread.sleep(1)}. */
    record SleepPoll(String label) implements Mode {}

    /** Takes a setting that {@link #OPTIONS} does not know; false when it does not know it either. */
    @FunctionalInterface
    interface BuilderHook {
        boolean apply(GpuReactor.Builder builder, String key, String value);

        BuilderHook NONE = (b, k, v) -> false;
    }

    /**
     * The reactor settings a mode may carry, each applied to the builder: add a new
     * {@link GpuReactor.Builder} option here (one line) to make it a mode setting.
     */
    Map<String, BiConsumer<GpuReactor.Builder, String>> OPTIONS = options();

    private static Map<String, BiConsumer<GpuReactor.Builder, String>> options() {
        Map<String, BiConsumer<GpuReactor.Builder, String>> m = new LinkedHashMap<>();
        m.put("carriers", (b, v) -> b.carriers(integer("carriers", v)));
        m.put("hosting", (b, v) -> b.hosting(bool("hosting", v)));
        m.put("hardwarePark", (b, v) -> b.hardwarePark(bool("hardwarePark", v)));
        m.put("carrierTurns", (b, v) -> b.carrierTurns(bool("carrierTurns", v)));
        m.put("linesPerParker", (b, v) -> b.linesPerParker(integer("linesPerParker", v)));
        m.put("parkSpin", (b, v) -> b.parkSpin(Durations.parse(v, "parkSpin")));
        m.put("parkSlice", (b, v) -> b.parkSlice(Durations.parse(v, "parkSlice")));
        m.put("scheduler", (b, v) -> b.scheduler(scheduler(v)));
        m.put("plan", GpuReactor.Builder::plan);
        return Collections.unmodifiableMap(m);
    }

    /**
     * One mode from its text: {@code reactor}, {@code reactor-jdk}, {@code watcher}, {@code sleep1},
     * {@code reactor:key=value,key=value} (also {@code reactor-jdk:...}), or {@code watcher:interval=25us}
     * (its one setting). Values may not hold commas; {@code plan} values use {@code ;} for the plan's own commas.
     */
    static Mode parse(String text) {
        String t = Objects.requireNonNull(text, "text").trim();
        int colon = t.indexOf(':');
        String name = colon < 0 ? t : t.substring(0, colon);
        String rest = colon < 0 ? "" : t.substring(colon + 1);
        Map<String, String> settings = new LinkedHashMap<>();
        switch (name) {
            case "reactor" -> {}
            case "reactor-jdk" -> settings.put("scheduler", "jdk-default");
            case "watcher" -> {
                return rest.isEmpty() ? WATCHER : watcher(t, rest);
            }
            case "sleep1" -> {
                if (!rest.isEmpty()) throw new IllegalArgumentException("mode " + name + " takes no settings: " + t);
                return new SleepPoll(name);
            }
            default -> throw new IllegalArgumentException("unknown mode \"" + t
                    + "\" (reactor[:k=v,...], reactor-jdk, watcher[:interval=25us], sleep1)");
        }
        if (!rest.isEmpty()) {
            for (String kv : rest.split(",")) {
                int eq = kv.indexOf('=');
                if (eq <= 0 || eq == kv.length() - 1) throw new IllegalArgumentException("mode " + t + ": \"" + kv + "\" is not key=value");
                settings.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim().replace(';', ','));
            }
        }
        return new Reactor(t, settings);
    }

    /**
     * Modes from a {@code --modes} text: comma-separated, where a comma followed by a
     * {@code key=value} continues the mode before it ({@code reactor,reactor:carriers=2,hosting=false,watcher}
     * is three modes).
     */
    static List<Mode> parseList(String text) {
        List<String> parts = new ArrayList<>();
        for (String tok : Objects.requireNonNull(text, "text").split(",")) {
            String t = tok.trim();
            if (t.isEmpty()) continue;
            boolean continues = t.contains("=") && !t.contains(":") && !parts.isEmpty() && parts.getLast().contains(":");
            if (continues) parts.set(parts.size() - 1, parts.getLast() + "," + t);
            else parts.add(t);
        }
        List<Mode> out = new ArrayList<>();
        for (String s : parts) {
            Mode m = parse(s);
            if (out.stream().anyMatch(o -> o.label().equals(m.label()))) throw new IllegalArgumentException("mode " + s + " given twice");
            out.add(m);
        }
        if (out.isEmpty()) throw new IllegalArgumentException("no modes in \"" + text + "\"");
        return List.copyOf(out);
    }

    /** {@code watcher:interval=D}: the one setting a watcher takes. */
    private static Watcher watcher(String text, String rest) {
        int eq = rest.indexOf('=');
        String key = eq < 0 ? rest.trim() : rest.substring(0, eq).trim();
        if (eq <= 0 || !key.equals("interval") || rest.indexOf(',') >= 0) {
            throw new IllegalArgumentException("mode " + text + ": a watcher takes one setting, interval=D (e.g. watcher:interval=25us)");
        }
        return new Watcher(text, Durations.parse(rest.substring(eq + 1), "mode " + text + ": interval"));
    }

    private static int integer(String key, String v) {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + "=" + v + " is not an integer");
        }
    }

    private static boolean bool(String key, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "on", "yes" -> true;
            case "false", "off", "no" -> false;
            default -> throw new IllegalArgumentException(key + "=" + v + " is not true or false");
        };
    }

    private static Scheduler scheduler(String v) {
        for (Scheduler s : Scheduler.values()) if (s.declaredName().equals(v) || s.name().equalsIgnoreCase(v)) return s;
        throw new IllegalArgumentException("scheduler=" + v + " is not carrier-pool or jdk-default");
    }
}
