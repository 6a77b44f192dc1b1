/**
 * The {@code gar} command line ({@link dev.gpureactor.cli.Gar}): picocli adapters for {@code demo},
 * {@code probe}, {@code bench} and {@code soak} over the engines beside it ({@code dev.gpureactor.demo},
 * {@code dev.gpureactor.bench}, {@code dev.gpureactor.soak}), the option mixins they share
 * ({@code ReactorOptions}, {@code OutputOptions}, {@code RunOptions}, with per-command wording in
 * {@code Options.properties} and defaults in {@code OptionDefaults}), and the backend probes
 * aggregated for {@code gar probe}. The io_uring host comes from
 * {@code dev.gpureactor.host.uring.UringHost}. Not part of the library's API: the module does not
 * export it.
 *
 * <p>Layer rule ({@code ArchitectureTest}): the top of the graph. It may use every other package and
 * the CLI's own libraries (picocli, HdrHistogram, both optional dependencies shaded into
 * {@code target/gar.jar} only); no package may use it.
 */
package dev.gpureactor.cli;
