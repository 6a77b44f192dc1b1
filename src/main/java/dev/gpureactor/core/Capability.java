package dev.gpureactor.core;

import java.util.Objects;
import java.util.Optional;

/**
 * Whether the host offers something, and if not, why: probed once by the host, never by the core.
 *
 * @param missing what is missing
 */
public record Capability(Optional<String> missing) {
    private static final Capability PRESENT = new Capability(Optional.empty());

    /** Checks {@code missing} is not null. */
    public Capability {
        Objects.requireNonNull(missing, "missing");
    }

    /**
     * The capability is there.
     *
     * @return the one present capability
     */
    public static Capability present() { return PRESENT; }

    /**
     * The capability is not there, and why.
     *
     * @param why what is missing, for the fallback's warning
     * @return a missing capability
     */
    public static Capability missing(String why) { return new Capability(Optional.of(Objects.requireNonNull(why, "why"))); }

    /**
     * Whether the host offers it.
     *
     * @return true when nothing is missing
     */
    public boolean isPresent() { return missing.isEmpty(); }

    @Override
    public String toString() { return missing.map(w -> "missing: " + w).orElse("present"); }
}
