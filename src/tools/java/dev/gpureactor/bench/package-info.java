/**
 * The wake-latency benchmark engine behind {@code gar bench}, and the JMH benchmarks (src/jmh/java, in
 * this package too, so both measure one code path): a simulated store device
 * ({@link dev.gpureactor.bench.BenchDevice}), the ways of waiting it compares
 * ({@link dev.gpureactor.bench.Strategy}), the measuring loop ({@link dev.gpureactor.bench.WakeRig}),
 * the quick comparison and its goals ({@link dev.gpureactor.bench.WakeBench},
 * {@link dev.gpureactor.bench.Goals}), and the run's report, JSON and SVG. See {@code docs/BENCHMARKS.md}.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses the library's packages ({@code core}, {@code park},
 * {@code loom}, {@code backend}, {@code host} and their sub-packages), {@code dev.gpureactor.json} and
 * HdrHistogram; never {@code dev.gpureactor.cli}, which drives it. The JMH classes may also use JMH.
 */
package dev.gpureactor.bench;
