package dev.gpureactor.cli;

import picocli.CommandLine;
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

    /**
     * Checks an output FILE as the command line is read, so that a run of minutes does not fail at its
     * end with a bare path: its folder must exist (or, with {@code makesFolders}, its nearest existing
     * folder) and be writable, and FILE must not be a folder. Stdout ({@code -}) passes.
     */
    static String checkedOutput(String file, boolean makesFolders) {
        if ("-".equals(file)) return file;
        Path path = Path.of(file).toAbsolutePath();
        if (Files.isDirectory(path)) throw new CommandLine.TypeConversionException(file + " is a folder; give a file name in it");
        Path dir = path.getParent();
        while (makesFolders && dir != null && !Files.exists(dir)) dir = dir.getParent();
        if (dir == null || !Files.exists(dir)) {
            throw new CommandLine.TypeConversionException("the folder " + path.getParent() + " does not exist; give a FILE in a folder that does");
        }
        if (!Files.isDirectory(dir)) throw new CommandLine.TypeConversionException(dir + " is not a folder; give a FILE in a folder");
        if (!Files.isWritable(dir)) throw new CommandLine.TypeConversionException("the folder " + dir + " is not writable");
        return file;
    }

    /** {@link #checkedOutput} as picocli's converter of an output file that goes where its folder is. */
    static final class OutputFile implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) { return checkedOutput(value, false); }
    }

    /** {@link #checkedOutput} for a {@code Path} output whose folders are made when missing ({@code --plot}). */
    static final class OutputPathMakingFolders implements CommandLine.ITypeConverter<Path> {
        @Override
        public Path convert(String value) { return Path.of(checkedOutput(value, true)); }
    }

    /** {@link #checkedOutput} for a {@code Path} output in a folder that must exist ({@code --jfr}). */
    static final class OutputPath implements CommandLine.ITypeConverter<Path> {
        @Override
        public Path convert(String value) { return Path.of(checkedOutput(value, false)); }
    }

    /** {@code --json [FILE]} and {@code --quiet}: the benchmarks that print a table (bench, service, scale). */
    static final class Report {
        @Option(names = "--json", arity = "0..1", fallbackValue = "-", paramLabel = "FILE", converter = OutputFile.class,
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
        @Option(names = "--plot", paramLabel = "FILE.svg", descriptionKey = "plot", converter = OutputPathMakingFolders.class, description = "Write a latency-versus-CPU scatter plot (SVG) to FILE.")
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
