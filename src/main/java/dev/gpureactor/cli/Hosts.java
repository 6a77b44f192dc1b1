package dev.gpureactor.cli;

import dev.gpureactor.core.HostCaps;
import dev.gpureactor.host.uring.UringProbe;
import dev.gpureactor.host.uring.UringSleeper;
import dev.gpureactor.loom.GpuReactor;

/**
 * The composition the layers cannot do themselves: loom knows no host, so the command line probes
 * io_uring and hands the reactor its deadline sleeper. User code does the same in two lines.
 */
final class Hosts {
    private Hosts() {}

    /** Everything this host offers, io_uring included. */
    static HostCaps caps() {
        return UringProbe.hostCaps(GpuReactor.probe());
    }

    /** A reactor builder with the io_uring host wired in (used only when the kind resolves to io-uring). */
    static GpuReactor.Builder builder() {
        return GpuReactor.builder().caps(caps()).deadlineSleeper(UringSleeper::open);
    }
}
