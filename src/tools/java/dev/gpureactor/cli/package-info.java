/**
 * The {@code gar} command line ({@link dev.gpureactor.cli.Gar}): picocli adapters for {@code demo},
 * {@code probe}, {@code bench} and {@code soak} over the engines beside it ({@code dev.gpureactor.demo},
 * {@code dev.gpureactor.bench}, {@code dev.gpureactor.soak}), the option mixins they share
 * ({@code ReactorOptions}, {@code OutputOptions}, {@code RunOptions}, with per-command wording in
 * {@code Options.properties} and defaults in {@code OptionDefaults}), the benchmark commands' shared
 * frame ({@code RunCommand}: options to settings, a bad setting exits 2) and progress line
 * ({@code StatusLine}), and the backend probes
 * aggregated for {@code gar probe}. The io_uring host comes from
 * {@code dev.gpureactor.host.uring.UringHost}. A tool, not part of the library: it builds from
 * {@code src/tools} into the tools artifact and {@code gar.jar}.
 *
 * <p>Layer rule ({@code ArchitectureTest}): the top of the graph. It may use every other package and
 * the CLI's own libraries (picocli, HdrHistogram, both shaded into {@code target/gar.jar}); no package
 * may use it.
 */
package dev.gpureactor.cli;
