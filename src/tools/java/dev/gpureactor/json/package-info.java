/**
 * The project's one JSON writer and reader ({@link dev.gpureactor.json.Json}), shared by the command line
 * and the bench and soak engines it drives, so that neither engine names the command line. Not part of the
 * library's API: the module does not export it.
 *
 * <p>Layer rule ({@code ArchitectureTest}): the JDK's {@code java.*} only.
 */
package dev.gpureactor.json;
