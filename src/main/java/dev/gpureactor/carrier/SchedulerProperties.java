package dev.gpureactor.carrier;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

/**
 * The JDK's own settings of its virtual-thread scheduler, read as the JDK reads them for it
 * ({@code java.lang.VirtualThread.createDefaultScheduler}), so that a user who hands us their virtual
 * threads keeps the knobs they already turn: {@code jdk.virtualThreadScheduler.parallelism} (the
 * carriers kept, one per core by default) and {@code jdk.virtualThreadScheduler.maxPoolSize} (the
 * carriers in all, compensating ones included, {@code max(parallelism, 256)} by default; set, it
 * also caps the parallelism). A value that is not a number is left at its default: the JDK's own
 * scheduler throws on it when it is created, so the user has been told.
 */
public final class SchedulerProperties {
    private static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";
    private static final String MAX_POOL_SIZE = "jdk.virtualThreadScheduler.maxPoolSize";

    /** The pool's most carriers running at once: past any core count, inside the JDK's 32767. */
    private static final int MAX_PARALLELISM = 4096;

    private SchedulerProperties() {}

    /** {@return {@code parallelism} if 1..4096 (the pool's own bound), else a coded InvalidArgument} @param parallelism carriers asked for */
    public static int checkedParallelism(int parallelism) {
        if (parallelism < 1 || parallelism > MAX_PARALLELISM)
            throw new ReactorException(ErrorCode.InvalidArgument, "carriers", parallelism, "1.." + MAX_PARALLELISM);
        return parallelism;
    }

    /**
     * The carriers to keep when none is asked for: {@code jdk.virtualThreadScheduler.parallelism},
     * else one per core, capped by {@code jdk.virtualThreadScheduler.maxPoolSize} when that is set, as
     * the JDK caps its own; within the pool's 1..4096.
     *
     * @return the default parallelism
     */
    public static int parallelism() {
        int parallelism = read(PARALLELISM, Runtime.getRuntime().availableProcessors());
        int max = read(MAX_POOL_SIZE, Integer.MAX_VALUE);
        return Math.clamp(Math.min(parallelism, max), 1, MAX_PARALLELISM);
    }

    /**
     * The pool's maximum size for {@code parallelism} carriers: {@code jdk.virtualThreadScheduler.maxPoolSize},
     * else {@code max(parallelism, 256)}; clamped to {@code [parallelism, 32767]} (the pool's own limit).
     */
    static int maxPoolSize(int parallelism) {
        return Math.clamp(read(MAX_POOL_SIZE, Math.max(parallelism, 256)), parallelism, 0x7fff);
    }

    private static int read(String key, int otherwise) {
        String v = System.getProperty(key);
        if (v == null) return otherwise;
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
