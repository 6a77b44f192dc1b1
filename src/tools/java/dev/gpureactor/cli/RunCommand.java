package dev.gpureactor.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * A benchmark command (bench, service, scale): its options become settings, and a setting that does
 * not hold is a usage error, {@code gar <command>: <why>} on stderr and exit status 2, before
 * anything runs. The command's options and mixins stay in the command, so that its help keeps their
 * order.
 *
 * @param <S> the benchmark's settings
 */
abstract class RunCommand<S> implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** The settings the options give; an {@link IllegalArgumentException} says what is wrong with them. */
    abstract S settings();

    /** Runs the benchmark on valid settings; the exit status. */
    abstract int run(S settings, PrintWriter err) throws Exception;

    @Override
    public final Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        S settings;
        try {
            settings = settings();
        } catch (IllegalArgumentException e) {
            err.println("gar " + spec.name() + ": " + e.getMessage());
            return 2;
        }
        return run(settings, err);
    }
}
