package dev.gpureactor.core;

import java.util.Objects;
import java.util.Optional;

/**
 * A setting declared with a fallback chain (an executor kind, a scheduler): what it needs from the
 * host, and what runs in its place when that is missing.
 *
 * @param <T> the setting type itself
 * @param <C> the host capabilities it is checked against
 */
public interface Declared<T extends Declared<T, C>, C> {
    /**
     * The name the setting is written with.
     *
     * @return the declared name
     */
    String declaredName();

    /**
     * Why this value cannot run on a host with {@code caps}, or empty if it can.
     *
     * @param caps what the host can do
     * @return the missing capability, or empty
     */
    Optional<String> lacks(C caps);

    /**
     * The next value down the declared chain, or empty for the last resort.
     *
     * @return the fallback
     */
    Optional<T> fallback();

    /**
     * Resolves a request against the host, once, at startup: the requested value when it can run;
     * else, under {@link Strictness#FALLBACK}, the first value down the chain that can, with an
     * {@link ErrorCode#ExecutorFallback} warning (requested, why, what runs); under
     * {@link Strictness#STRICT}, {@link ErrorCode#ExecutorRefused} (requested, why). Pure.
     *
     * @param <T> the result's type
     * @param <C> the type
     * @param requested the one requested
     * @param strictness fallback or refusal
     * @param caps the host capabilities
     * @return what was requested, what runs, and the fallback's warning if any
     */
    static <T extends Declared<T, C>, C> Resolved<T> resolve(T requested, Strictness strictness, C caps) {
        Objects.requireNonNull(requested, "requested");
        Objects.requireNonNull(strictness, "strictness");
        Objects.requireNonNull(caps, "caps");
        Optional<String> why = requested.lacks(caps);
        if (why.isEmpty()) return new Resolved<>(requested, requested, Optional.empty());
        if (strictness == Strictness.STRICT) {
            throw new ReactorException(ErrorCode.ExecutorRefused, requested.declaredName(), why.get());
        }
        T running = requested;
        while (running.lacks(caps).isPresent()) {
            T next = running.fallback().orElse(null);
            if (next == null) {
                throw new ReactorException(ErrorCode.ExecutorRefused, requested.declaredName(),
                        why.get() + "; and no declared fallback can run: " + running.lacks(caps).get());
            }
            running = next;
        }
        return new Resolved<>(requested, running,
                Optional.of(Warning.of(ErrorCode.ExecutorFallback, requested.declaredName(), why.get(), running.declaredName())));
    }

    /**
     * What was asked for, what runs, and the warning when they differ.
     *
     * @param <T> the result's type
     * @param requested the one requested
     * @param running the one that runs
     * @param warning the warning
     */
    record Resolved<T extends Declared<T, ?>>(T requested, T running, Optional<Warning> warning) {
        /** Checks that no component is null. */
        public Resolved {
            Objects.requireNonNull(requested, "requested");
            Objects.requireNonNull(running, "running");
            Objects.requireNonNull(warning, "warning");
        }

        /** {@return the running value's name; equals the requested name when nothing fell back} */
        public String label() {
            return running == requested ? running.declaredName()
                    : running.declaredName() + " (fallback for " + requested.declaredName() + ")";
        }
    }
}
