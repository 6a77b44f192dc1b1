package dev.gpureactor.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared option mixins ({@link ReactorOptions}, {@link OutputOptions}): each command that has an
 * option gets it from the one mixin, with the help text and default users saw before the options
 * were shared, and every per-command text in {@code Options.properties} reaches the command it names
 * (a misspelt key would silently show the mixin's text instead).
 */
class SharedOptionsTest {
    private static final CommandLine GAR = Gar.commandLine();

    private static OptionSpec option(String command, String name) {
        CommandLine sub = GAR.getSubcommands().get(command);
        assertNotNull(sub, command);
        OptionSpec o = sub.getCommandSpec().findOption(name);
        assertNotNull(o, command + " " + name);
        return o;
    }

    /** The description as the help prints it, variables expanded, lines joined. */
    private static String help(String command, String name) {
        return String.join(" ", option(command, name).description());
    }

    @Test
    void an_output_file_that_cannot_be_written_is_refused_as_the_command_line_is_read_not_after_the_run() throws IOException {
        String missing = "/nonexistent-gar-folder/x";
        java.nio.file.Path aFile = java.nio.file.Files.createTempFile("gar-not-a-folder", ".txt");
        aFile.toFile().deleteOnExit();
        for (List<String> args : List.of(List.of("scale", "--json", missing + ".json"), List.of("bench", "--plot", aFile + "/sub/x.svg"),
                List.of("demo", "--jfr", missing + ".jfr"), List.of("service", "--json", System.getProperty("java.io.tmpdir")))) {
            java.io.StringWriter err = new java.io.StringWriter();
            CommandLine cl = Gar.commandLine();
            cl.setErr(new java.io.PrintWriter(err));
            long t0 = System.nanoTime();
            int rc = cl.execute(args.toArray(String[]::new));
            assertEquals(2, rc, args + ": " + err);
            assertTrue(err.toString().contains(args.get(1)), args + ": names the option: " + err);
            assertTrue(err.toString().contains("does not exist") || err.toString().contains("is a folder") || err.toString().contains("not a folder"),
                    args + ": says what is wrong: " + err);
            assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(), args + ": refused before the run, not after it");
        }
    }

    @Test
    void a_bad_count_or_duration_is_refused_naming_the_option_and_the_value_given() {
        Map<List<String>, String> cases = Map.of(
                List.of("scale", "--lines", "0"), "GAR-0022 InvalidArgument: lines = 0 is invalid; expected >= 1",
                List.of("scale", "--fan-out", "-1"), "GAR-0022 InvalidArgument: fan-out = -1 is invalid; expected >= 1",
                List.of("scale", "--window", "0s"), "GAR-0022 InvalidArgument: window = PT0S is invalid; expected > 0",
                List.of("gpu-bench", "--iterations", "0"), "GAR-0022 InvalidArgument: iterations = 0 is invalid; expected >= 1",
                List.of("gpu-bench", "--warmup", "-3"), "GAR-0022 InvalidArgument: warmup = -3 is invalid; expected >= 0",
                // Each of these named neither the option nor what it takes, or was taken silently (--lines-per-parker 0).
                List.of("scale", "--lines-per-parker", "0"), "--lines-per-parker = 0 is invalid; expected >= 1",
                List.of("gpu-bench", "--step", "bogus"), "--step: \"bogus\" is not one of wake, rtt",
                List.of("bench", "--duration", "0s"), "--duration (each cell's measured window) must be positive",
                List.of("service", "--profile-clients", "-1"), "--profile-clients must be >= 1; got -1");
        cases.forEach((args, expected) -> {
            java.io.StringWriter err = new java.io.StringWriter();
            CommandLine cl = Gar.commandLine();
            cl.setErr(new java.io.PrintWriter(err));
            assertEquals(2, cl.execute(args.toArray(String[]::new)), args + ": " + err);
            assertTrue(err.toString().contains(expected), args + ": " + err);
        });
    }

    @Test
    void every_per_command_text_in_the_bundle_reaches_its_command() throws IOException {
        Properties texts = new Properties();
        try (InputStream in = Gar.class.getResourceAsStream("Options.properties")) {
            assertNotNull(in, "Options.properties on the class path");
            texts.load(in);
        }
        assertTrue(texts.size() >= 6, texts.toString());
        for (String key : texts.stringPropertyNames()) {
            String[] parts = key.split("\\.", 3);
            assertEquals(3, parts.length, key);
            assertEquals("gar", parts[0], key);
            CommandLine sub = GAR.getSubcommands().get(parts[1]);
            assertNotNull(sub, key + ": no such command");
            OptionSpec o = sub.getCommandSpec().options().stream().filter(x -> parts[2].equals(x.descriptionKey())).findFirst().orElse(null);
            assertNotNull(o, key + ": no option with that descriptionKey");
            String expected = texts.getProperty(key).replace("${DEFAULT-VALUE}", String.valueOf(o.defaultValueString()));
            assertEquals(expected, String.join(" ", o.description()), key);
        }
    }

    @Test
    void each_shared_option_keeps_its_help_text_per_command() {
        String library = "Carrier threads (default: the library's: one per core).";
        assertEquals(library, help("bench", "--carriers"));
        assertEquals(library, help("demo", "--carriers"));
        assertEquals("Carrier threads per reactor (default: cores - 1, at least 1).", help("soak", "--carriers"));
        assertEquals("Wait plan text (default: " + DemoCommand.DEFAULT_PLAN + ").", help("demo", "--plan"));
        assertEquals("Wait plan of every reactor (default: drawn per reactor from the seed).", help("soak", "--plan"));
        String report = "Write the run as JSON to FILE, or to stdout instead of the table when no FILE is given.";
        for (String c : List.of("bench", "service", "scale")) assertEquals(report, help(c, "--json"), c);
        assertEquals(Map.of("bench", "No progress bar.", "service", "No progress line.", "scale", "No progress lines."),
                Map.of("bench", help("bench", "--quiet"), "service", help("service", "--quiet"), "scale", help("scale", "--quiet")));
        assertEquals("Print one JSON object instead of the table.", help("probe", "--json"));
        assertEquals("Print the report as JSON (progress goes to stderr).", help("soak", "--json"));
        assertEquals("Print one JSON object (progress goes to stderr).", help("gpu-bench", "--json"));
        assertEquals("Write a latency-versus-CPU scatter plot (SVG) to FILE.", help("bench", "--plot"));
        assertEquals("Write rps and wake p99 against clients, per mode, as SVG to FILE.", help("service", "--plot"));
        assertEquals("Warm-up before a strategy's first slice; a third of it (at least 100 ms) before each later one (default: 0.4s).",
                help("bench", "--warmup"));
        assertEquals("Unmeasured warm-up per cell (default: 3s).", help("service", "--warmup"));
        assertEquals("Measured window per cell (default: 10s).", help("service", "--window"));
        assertEquals("Unmeasured time before each many-lines window (default: 1s).", help("scale", "--warmup"));
        assertEquals("Each many-lines window (default: 3s).", help("scale", "--window"));
        assertEquals("Rounds in which the strategies of a wait length take turns, so that the host's changing load falls on all"
                + " of them alike (default: 3).", help("bench", "--rounds"));
        assertEquals("Rounds; in each the modes of a level take turns in a rotated order; medians are reported (default: 2).",
                help("service", "--rounds"));
        assertEquals("Rounds; the heap trend needs at least 10 (default: 10).", help("soak", "--rounds"));
        assertTrue(help("service", "--quick").startsWith("A smoke-sized run: 8 clients"), help("service", "--quick"));
        assertTrue(help("scale", "--quick").startsWith("A smoke-sized run: lines 1,2"), help("scale", "--quick"));
    }

    @Test
    void each_command_keeps_its_own_run_length_defaults() {
        assertEquals(Duration.ofMillis(400), ((BenchCommand) parsed("bench")).warmup.value(Duration.ZERO));
        ServiceCommand service = parsed("service");
        assertEquals(Duration.ofSeconds(3), service.warmup.value(Duration.ZERO));
        assertEquals(Duration.ofSeconds(10), service.window.value(Duration.ZERO));
        ScaleCommand scale = parsed("scale");
        assertEquals(Duration.ofSeconds(7), scale.warmup.value(Duration.ofSeconds(7)), "scale's default is its Settings'");
        assertEquals(Duration.ofMillis(250), ((ScaleCommand) parsed("scale", "--window", "250ms")).window.value(Duration.ofSeconds(7)));
        assertTrue(((ScaleCommand) parsed("scale", "--quick")).quick.quick);
        assertEquals(3, ((BenchCommand) parsed("bench")).rounds.rounds);
        assertEquals(2, ((ServiceCommand) parsed("service")).rounds.rounds);
        assertEquals(10, ((SoakCommand) parsed("soak")).rounds.rounds);
        assertEquals(5, ((SoakCommand) parsed("soak", "--rounds", "5")).rounds.rounds);
    }

    @Test
    void the_demo_alone_has_a_default_plan_and_it_parses() {
        assertEquals(DemoCommand.DEFAULT_PLAN, option("demo", "--plan").defaultValueString());
        DemoCommand demo = parsed("demo");
        assertEquals(DemoCommand.DEFAULT_PLAN, demo.plan.value().orElseThrow().label());
        SoakCommand soak = parsed("soak");
        assertTrue(soak.plan.value().isEmpty(), "soak draws its plan from the seed when none is given");
        assertTrue(soak.carriers.value().isEmpty(), "soak sizes its carriers itself when none is given");
        assertEquals(3, ((SoakCommand) parsed("soak", "--carriers", "3")).carriers.value().getAsInt());
    }

    /** The command object after picocli parsed {@code gar command args...} (not run). */
    @SuppressWarnings("unchecked")
    private static <T> T parsed(String command, String... args) {
        CommandLine cl = Gar.commandLine();
        String[] all = new String[args.length + 1];
        all[0] = command;
        System.arraycopy(args, 0, all, 1, args.length);
        cl.parseArgs(all);
        return (T) cl.getSubcommands().get(command).getCommand();
    }
}
