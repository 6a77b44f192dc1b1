/**
 * gpu-async-reactor: await GPU work from blocking Java code on virtual threads.
 *
 * <p>Exports the API: {@code core} (descriptors, lines, plans, ports, coded errors), {@code loom} (the
 * reactor, its builder, futures and executor, its stats and MXBean), {@code backend} and its backends, {@code
 * host} and its io_uring host. Not exported, and named by no exported signature: {@code parker} (the parkers
 * and their waits), {@code carrier} (the carrier pool and its scheduler hooks), {@code park} (the line parks;
 * {@code HostCaps} reports what they can do), {@code loader} (the native loader), and the raw driver calls
 * of {@code backend.cuda.raw} and {@code backend.hip.raw}. The {@code gar} command line and its engines are
 * not in this module: they build from {@code src/tools} into the tools artifact and {@code gar.jar}.
 *
 * <p>On the module path the JVM needs {@code --enable-native-access=dev.gpureactor} and, for the carrier
 * pool, {@code --add-opens java.base/java.lang=dev.gpureactor}; without the second the reactor falls back
 * to the JDK's scheduler with the coded {@code ExecutorFallback} warning, which names the flag.
 */
module dev.gpureactor {
    exports dev.gpureactor.core;
    exports dev.gpureactor.loom;
    exports dev.gpureactor.backend;
    exports dev.gpureactor.backend.sim;
    exports dev.gpureactor.backend.cuda;
    exports dev.gpureactor.backend.hip;
    exports dev.gpureactor.backend.metal;
    exports dev.gpureactor.host;
    exports dev.gpureactor.host.uring;

    requires jdk.jfr; // parker, carrier, loom: the dev.gpureactor.* JFR events
    // parker: the parkers' thread CPU time (RunStats.parkerCpuNanos); loom: the reactor's MXBean, and
    // GpuReactor.jmxName() returns an ObjectName, so a user reading it needs the module too
    requires transitive java.management;
}
