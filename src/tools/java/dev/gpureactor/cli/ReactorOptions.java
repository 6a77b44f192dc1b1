package dev.gpureactor.cli;

import dev.gpureactor.core.WaitPlan;
import picocli.CommandLine.Option;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The reactor settings more than one command takes, each a picocli {@code @Mixin}: one option, one
 * parse, one help text. A command whose default differs says so in its own words through the
 * shared resource bundle ({@code Options.properties}, key {@code gar.<command>.<option>}); the
 * annotation's text is the one the other commands show.
 */
final class ReactorOptions {
    private ReactorOptions() {}

    /** {@code --carriers}: bench, demo, soak. */
    static final class Carriers {
        @Option(names = "--carriers", descriptionKey = "carriers",
                description = "Carrier threads (default: the library's: one per core).")
        Integer carriers;

        /** The count given, or empty for the command's default. */
        OptionalInt value() {
            return carriers == null ? OptionalInt.empty() : OptionalInt.of(carriers);
        }
    }

    /**
     * {@code --plan}: demo, soak. A command with a default plan gives it with a
     * {@code defaultValueProvider}, so that {@code ${DEFAULT-VALUE}} in the help shows it.
     */
    static final class Plan {
        @Option(names = "--plan", descriptionKey = "plan", description = "Wait plan text (default: ${DEFAULT-VALUE}).")
        String plan;

        /** The plan given (or the command's default), parsed; empty when there is neither. */
        Optional<WaitPlan> value() {
            return plan == null ? Optional.empty() : Optional.of(WaitPlan.parse(plan));
        }
    }
}
