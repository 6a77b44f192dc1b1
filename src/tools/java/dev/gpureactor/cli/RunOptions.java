package dev.gpureactor.cli;

import dev.gpureactor.bench.service.Durations;
import picocli.CommandLine.Option;

import java.time.Duration;

/**
 * How long a benchmark runs, each a picocli {@code @Mixin} shared by the commands that have it
 * (bench, service, scale). Each command words these options its own way (what is warmed up, what
 * a window measures), so their help text is in the shared resource bundle ({@code Options.properties},
 * key {@code gar.<command>.<option>}); a command's default comes from its {@link OptionDefaults}, so that
 * {@code ${DEFAULT-VALUE}} in that text shows it, or is the command's own where it has none here.
 */
final class RunOptions {
    private RunOptions() {}

    /** {@code --warmup}: bench, service, scale. */
    static final class Warmup {
        @Option(names = "--warmup", descriptionKey = "warmup", description = "Unmeasured warm-up (default: ${DEFAULT-VALUE}).")
        String warmup;

        /** The warm-up given (or the command's default), parsed; {@code otherwise} when there is neither. */
        Duration value(Duration otherwise) {
            return warmup == null ? otherwise : Durations.parse(warmup, "--warmup");
        }
    }

    /** {@code --window}: service, scale. */
    static final class Window {
        @Option(names = "--window", descriptionKey = "window", description = "Measured window (default: ${DEFAULT-VALUE}).")
        String window;

        /** The window given (or the command's default), parsed; {@code otherwise} when there is neither. */
        Duration value(Duration otherwise) {
            return window == null ? otherwise : Durations.parse(window, "--window");
        }
    }

    /** {@code --rounds}: bench, service, soak; the command's {@link OptionDefaults} give its default. */
    static final class Rounds {
        @Option(names = "--rounds", descriptionKey = "rounds", description = "Rounds (default: ${DEFAULT-VALUE}).")
        int rounds;
    }

    /** {@code --quick}: service, scale; each command's preset says what it shrinks. */
    static final class Quick {
        @Option(names = "--quick", descriptionKey = "quick", description = "A smoke-sized run (options given explicitly win).")
        boolean quick;
    }

}
