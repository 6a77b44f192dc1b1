/**
 * The service benchmark's engine ({@code gar service}, docs/SERVICE.md): a JDK {@code HttpServer} on the
 * loopback (or another server, a {@code ServiceBench.Front} that the caller plugs in: the tests' Jetty 12) whose handlers launch work on simulated streams and await it, driven by closed-loop
 * keep-alive clients on virtual threads, in several modes (the library's defaults, variants of its
 * builder, and the JDK executor with a watcher thread at any polling interval or with sleep polling)
 * that take turns within one run, 1 request in 40 timed out, cancelled or interrupted ({@code Fate})
 * with each outcome checked against the contract; it reports throughput, latencies, CPU (by thread group,
 * and the OS's sleeps per request of each group: {@link dev.gpureactor.bench.service.OsThreads}), correctness
 * and fates per mode and client level, the ratios against the 100 µs watcher, and the frontier plot.
 *
 * <p>May use: {@code core}, {@code park}, {@code loom}, {@code backend}, the JDK (including the
 * supported {@code com.sun.net.httpserver} and {@code com.sun.management} APIs) and HdrHistogram.
 * Not {@code cli}: the command line, the JMH benchmarks and the tests all drive it through
 * {@link dev.gpureactor.bench.service.ServiceBench}. It also holds {@link dev.gpureactor.bench.service.ThreadCpu}
 * and the SVG markers and escaping of {@link dev.gpureactor.bench.service.ServicePlot}, which {@code gar bench} shares.
 */
package dev.gpureactor.bench.service;
