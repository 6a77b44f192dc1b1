package dev.gpureactor.loom;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test main class in a JVM of its own, on this JVM's class path and native-access flags, and
 * reports whether that JVM ended by itself (no {@code System.exit}) within a hang guard, with its
 * output and the {@code key=value} facts it printed. For the tests whose invariant is "the JVM exits".
 *
 * @param exited whether the child ended by itself within the guard (else it was killed)
 * @param exitValue its exit status (meaningless when it did not exit)
 * @param output stdout and stderr together
 * @param facts  every {@code key=value} line of the output, in order
 */
public record ChildJvm(boolean exited, int exitValue, String output, Map<String, String> facts) {
    /** Runs {@code main} with {@code args}; kills it after {@code guardSeconds} (a hang guard, not a timing). */
    public static ChildJvm run(Class<?> main, long guardSeconds, String... args) throws Exception {
        return run(main, guardSeconds, List.of(), args);
    }

    /** As {@link #run(Class, long, String...)}, with {@code jvmFlags} added to the child's java command. */
    public static ChildJvm run(Class<?> main, long guardSeconds, List<String> jvmFlags, String... args) throws Exception {
        List<String> cmd = java();
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED", "-Xshare:auto", "-cp",
                System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(Arrays.asList(args));
        return exec(cmd, guardSeconds, "JAVA_TOOL_OPTIONS");
    }

    /** The start of a child's command, to add to: this JVM's java launcher and the pom's child flags ({@code gar.test.classpath.jvmFlags}). */
    static List<String> java() {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String flags = System.getProperty("gar.test.classpath.jvmFlags", "--enable-native-access=ALL-UNNAMED").trim();
        if (!flags.isEmpty()) cmd.addAll(Arrays.asList(flags.split("\\s+")));
        return cmd;
    }

    /**
     * Runs {@code cmd} (a {@link #java()} command) with the environment variables {@code unset} taken
     * out of the child's environment; kills it after {@code guardSeconds} (a hang guard, not a timing).
     */
    static ChildJvm exec(List<String> cmd, long guardSeconds, String... unset) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        for (String name : unset) pb.environment().remove(name);
        Process p = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = p.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(output unreadable: " + e + ")";
            }
        });
        boolean exited = p.waitFor(guardSeconds, TimeUnit.SECONDS);
        if (!exited) p.destroyForcibly();
        String output = out.get(30, TimeUnit.SECONDS);
        Map<String, String> facts = new LinkedHashMap<>();
        for (String line : output.split("\\R")) {
            int eq = line.indexOf('=');
            if (eq > 0) facts.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return new ChildJvm(exited, exited ? p.exitValue() : -1, output, facts);
    }
}
