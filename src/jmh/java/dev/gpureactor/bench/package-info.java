/**
 * The JMH benchmarks (profile {@code jmh}, {@code target/jmh/benchmarks.jar}): wake latency through the
 * same {@code WakeRig} that {@code gar bench} runs, so both measure one code path. Benchmark code only;
 * it may use any package of the project and JMH.
 */
package dev.gpureactor.bench;
