/**
 * The project's one JSON writer and reader ({@link dev.gpureactor.json.Json}), shared by the command line
 * and the bench and soak engines it drives, so that neither engine names the command line. A tool, not
 * part of the library: it builds from {@code src/tools} into the tools artifact and {@code gar.jar}.
 *
 * <p>Layer rule ({@code ArchitectureTest}): the JDK's {@code java.*} only.
 */
package dev.gpureactor.json;
