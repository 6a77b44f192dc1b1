/**
 * The GPU run's measurements (docs/GPU.md), on the CUDA backend's typed layer ({@code CudaDriver},
 * {@code MappedLine}, {@code CudaPort}, {@code CuStream}): the store → waiter-running latency when
 * the device writes the word over PCIe ({@link dev.gpureactor.bench.gpu.WakeRun}, one waiter kind
 * after another in one run) and the round trip in which a stream waits for a host-written word and a
 * woken virtual thread writes the next ({@link dev.gpureactor.bench.gpu.RoundTrip}). The same code
 * runs on the stand-in driver, whose numbers say nothing about a GPU and are labelled so.
 *
 * <p>May use {@code core}, {@code park}, {@code loom}, {@code backend} and the JDK; no library (the
 * command line, {@code cli}, prints the results).
 */
package dev.gpureactor.bench.gpu;
