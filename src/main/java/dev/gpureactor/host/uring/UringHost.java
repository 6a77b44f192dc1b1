package dev.gpureactor.host.uring;

import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.loom.GpuReactor;

/**
 * The io_uring host composed with a reactor, in one call: the host's capabilities with io_uring
 * probed ({@link UringProbe}) and the parkers' deadline sleeps handed to a ring each
 * ({@link UringSleeper#open}). {@code loom} knows no host, so this is the one place the two meet;
 * without it every io_uring user would repeat the same two settings, and forgetting the sleeper
 * silently runs gpu-reactor.
 *
 * <pre>{@code
 * try (GpuReactor reactor = UringHost.builder().kind(ExecutorKind.IO_URING).build()) { ... }
 * }</pre>
 *
 * <p>Where the kernel refuses io_uring the capability says why, and {@link ExecutorKind#IO_URING}
 * resolves as {@link ExecutorKind#resolve} promises: gpu-reactor with an {@code ExecutorFallback}
 * warning, or {@code ExecutorRefused} under {@code Strictness.STRICT}.
 */
public final class UringHost {
    private UringHost() {}

    /**
     * {@link GpuReactor#builder()} with io_uring wired in ({@link #configure}); the kind is still the caller's to choose.
     *
     * @return a reactor builder configured for io_uring
     */
    public static GpuReactor.Builder builder() {
        return configure(GpuReactor.builder());
    }

    /**
     * Applies the io_uring host to {@code builder}: {@link #hostCaps()} as its capabilities and
     * {@link UringSleeper#open} as its deadline sleeper (used only when the kind resolves to io-uring).
     * A later {@code caps(...)} on the builder replaces the probed capabilities.
     *
     * @param builder the builder
     * @return {@code builder}
     */
    public static GpuReactor.Builder configure(GpuReactor.Builder builder) {
        return builder.caps(hostCaps()).deadlineSleeper(UringSleeper::open);
    }

    /**
     * Everything this host offers, io_uring included: the reactor's probe plus {@link UringProbe#probe()}.
     *
     * @return the host's capabilities with io_uring probed
     */
    public static HostCaps hostCaps() {
        return UringProbe.hostCaps(GpuReactor.probe());
    }
}
