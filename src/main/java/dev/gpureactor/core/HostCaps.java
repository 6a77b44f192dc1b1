package dev.gpureactor.core;

import java.util.Objects;

/**
 * What this host can run, probed once by the host layers (never by the core).
 *
 * @param parkers   platform parker threads (one per line); missing only where the host forbids them
 * @param carriers  the custom virtual-thread scheduler (the carrier pool), which needs java.lang opened
 * @param wordWait  a hardware word wait (umwait, mwaitx, wfe); without it parks use the pure-Java fallback
 * @param ioUring   a usable io_uring
 */
public record HostCaps(Capability parkers, Capability carriers, Capability wordWait, Capability ioUring) {
    /** Checks that no capability is null. */
    public HostCaps {
        Objects.requireNonNull(parkers, "parkers");
        Objects.requireNonNull(carriers, "carriers");
        Objects.requireNonNull(wordWait, "wordWait");
        Objects.requireNonNull(ioUring, "ioUring");
    }

    /** {@return a host with everything, for tests} */
    public static HostCaps everything() {
        return new HostCaps(Capability.present(), Capability.present(), Capability.present(), Capability.present());
    }
}
