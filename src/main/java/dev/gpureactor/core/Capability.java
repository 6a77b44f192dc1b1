package dev.gpureactor.core;

import java.util.Objects;
import java.util.Optional;

/** Whether the host offers something, and if not, why: probed once by the host, never by the core. */
public record Capability(Optional<String> missing) {
    private static final Capability PRESENT = new Capability(Optional.empty());

    public Capability {
        Objects.requireNonNull(missing, "missing");
    }

    public static Capability present() { return PRESENT; }

    public static Capability missing(String why) { return new Capability(Optional.of(Objects.requireNonNull(why, "why"))); }

    public boolean isPresent() { return missing.isEmpty(); }

    @Override
    public String toString() { return missing.map(w -> "missing: " + w).orElse("present"); }
}
