/**
 * gpu-async-reactor: await GPU work from blocking Java code on virtual threads.
 *
 * <p>Exports the API: {@code core} (descriptors, lines, plans, ports, coded errors), {@code loom} (the
 * reactor and its futures), {@code backend} and its backends, {@code host} and its io_uring host. Not
 * exported: {@code park} (the line parks and the native loader behind the parkers; no exported signature
 * names them, and {@code HostCaps} reports what they can do), {@code json} and {@code cli} with its
 * engines (the {@code gar} command line, which runs from the shaded {@code gar.jar} on the class path).
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

    // The command line's and its engines' own needs (picocli, the bench's
    // thread CPU times): optional, resolved only where gar runs. A JDK module that the exported packages
    // need at run time is a plain `requires` instead. HdrHistogram has no module name: the bench engine
    // reads it from the class path (pom.xml: --add-reads dev.gpureactor=ALL-UNNAMED, main compile only).
    requires static info.picocli;
    requires jdk.jfr; // loom: the dev.gpureactor.* JFR events (the soak's pin watch uses it too)
    requires java.management; // loom: the parkers' thread CPU time (RunStats.parkerCpuNanos), the reactor's MXBean
    requires static jdk.management;
    // The service benchmark's server (bench.service) and the close-under-load test.
    requires static jdk.httpserver;

    // picocli fills the commands' option fields by reflection.
    opens dev.gpureactor.cli to info.picocli;
}
