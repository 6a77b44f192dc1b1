package dev.gpureactor.cli;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * How a command reports, each a picocli {@code @Mixin} shared by the commands that have it; where a
 * command words an option its own way, the shared resource bundle ({@code Options.properties}, key
 * {@code gar.<command>.<option>}) holds that text.
 */
final class OutputOptions {
    private OutputOptions() {}

    /** {@code --json [FILE]} and {@code --quiet}: the benchmarks that print a table (bench, service, scale). */
    static final class Report {
        @Option(names = "--json", arity = "0..1", fallbackValue = "-", paramLabel = "FILE",
                description = "Write the run as JSON to FILE, or to stdout instead of the table when no FILE is given.")
        String json;

        @Option(names = "--quiet", descriptionKey = "quiet", description = "No progress lines.")
        boolean quiet;

        /**
         * The table on stdout unless the JSON goes there instead; the JSON (made only when asked
         * for) to stdout or to FILE.
         */
        void write(String table, Supplier<String> jsonText) throws IOException {
            boolean toStdout = "-".equals(json);
            if (!toStdout) System.out.print(table);
            if (json == null) return;
            String text = jsonText.get();
            if (toStdout) System.out.println(text);
            else Files.writeString(Path.of(json), text + "\n", StandardCharsets.UTF_8);
        }
    }

    /** {@code --json} as a flag: the commands that print one JSON object instead of text (probe, soak, gpu-bench). */
    static final class JsonFlag {
        @Option(names = "--json", descriptionKey = "json", description = "Print one JSON object instead of the table.")
        boolean json;

        /** Where progress lines go: stderr while stdout carries the JSON. */
        PrintStream progress() {
            return json ? System.err : System.out;
        }
    }

    /** {@code --plot FILE.svg}: bench and service. */
    static final class Plot {
        @Option(names = "--plot", paramLabel = "FILE.svg", descriptionKey = "plot", description = "Write a latency-versus-CPU scatter plot (SVG) to FILE.")
        Path plot;

        /** Writes the SVG (made only when asked for), creating FILE's folder; true when it wrote one. */
        boolean write(Supplier<String> svg) throws IOException {
            if (plot == null) return false;
            Path parent = plot.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            Files.writeString(plot, svg.get(), StandardCharsets.UTF_8);
            return true;
        }
    }
}
