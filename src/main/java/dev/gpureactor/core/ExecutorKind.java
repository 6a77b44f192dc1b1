package dev.gpureactor.core;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a waiting thread spends a wait. Declared chain: {@code io-uring → gpu-reactor → naive}.
 *
 * <ul>
 *   <li>{@link #NAIVE}: the waiting thread runs the plan itself (OS sleep, then park or poll).
 *   <li>{@link #GPU_REACTOR}: one parker thread per line waits and unparks the waiters; ready
 *       virtual threads fill the wait on the carriers. Needs parker threads.
 *   <li>{@link #IO_URING}: as gpu-reactor, with the parkers' deadline sleeps as
 *       {@code IORING_OP_TIMEOUT} on an io_uring. Needs io_uring and parker threads.
 * </ul>
 */
public enum ExecutorKind implements Declared<ExecutorKind, HostCaps> {
    /** Every joiner runs its own wait plan; no parker. */
    NAIVE("naive"),
    /** Parker threads watch the lines and wake the joiners; the default. */
    GPU_REACTOR("gpu-reactor"),
    /** As gpu-reactor, with the parkers' deadline sleeps on an io_uring (Linux; needs a deadline sleeper). */
    IO_URING("io-uring");

    private final String declaredName;

    ExecutorKind(String declaredName) { this.declaredName = declaredName; }

    @Override
    public String declaredName() { return declaredName; }

    @Override
    public Optional<String> lacks(HostCaps caps) {
        return switch (this) {
            case NAIVE -> Optional.empty();
            case GPU_REACTOR -> caps.parkers().missing().map(w -> "no parker threads: " + w);
            case IO_URING -> caps.ioUring().missing().map(w -> "io_uring unavailable: " + w)
                    .or(() -> caps.parkers().missing().map(w -> "no parker threads: " + w));
        };
    }

    @Override
    public Optional<ExecutorKind> fallback() {
        return switch (this) {
            case IO_URING -> Optional.of(GPU_REACTOR);
            case GPU_REACTOR -> Optional.of(NAIVE);
            case NAIVE -> Optional.empty();
        };
    }

    /**
     * {@return the kind with this name}
     *
     * @param name the name
     * @throws ReactorException {@link ErrorCode#InvalidExecutor} with the accepted names
     */
    public static ExecutorKind parse(String name) {
        java.util.Objects.requireNonNull(name, "name");
        for (ExecutorKind k : values()) if (k.declaredName.equals(name)) return k;
        throw new ReactorException(ErrorCode.InvalidExecutor, name, acceptedNames());
    }

    /**
     * The declared names {@link #parse} accepts, for error messages.
     *
     * @return the names, comma-separated, in declaration order
     */
    public static String acceptedNames() {
        return Arrays.stream(values()).map(ExecutorKind::declaredName).collect(Collectors.joining(", "));
    }

    /**
     * {@link Declared#resolve} for executor kinds.
     *
     * @param kind the executor kind
     * @param strictness fallback or refusal
     * @param caps the host capabilities
     * @return what was requested, what runs, and the fallback's warning if any
     */
    public static Declared.Resolved<ExecutorKind> resolve(ExecutorKind kind, Strictness strictness, HostCaps caps) {
        return Declared.resolve(kind, strictness, caps);
    }

    @Override
    public String toString() { return declaredName; }
}
