package dev.gpureactor.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code gar}: the command line. {@code gar demo} (the main job) runs on the simulated device by
 * default; {@code gar probe} says what this host can do and why not where it cannot; {@code gar bench} measures
 * wake latency and waiting CPU against the usual ways to wait.
 */
@Command(name = "gar", mixinStandardHelpOptions = true, version = "gar 0.1.0", resourceBundle = "dev.gpureactor.cli.Options",
        description = "gpu-async-reactor for the JVM: await GPU work from blocking Java code on virtual threads.",
        subcommands = {DemoCommand.class, ProbeCommand.class, BenchCommand.class, SoakCommand.class, ServiceCommand.class, ScaleCommand.class,
                GpuBenchCommand.class, BlockingCommand.class, CommandLine.HelpCommand.class})
public final class Gar implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line as {@code main} runs it: a failing command prints its coded message and exits 2. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Gar());
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            line.getErr().println("gar: " + ex.getMessage());
            return 2;
        });
        return cl;
    }
}
