package dev.gpureactor.cli;

import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.Map;
import java.util.Objects;

/**
 * A command's defaults for the shared options it gives one ({@code @Command(defaultValueProvider = ...)}),
 * by option name, so that {@code ${DEFAULT-VALUE}} in the help shows them. picocli asks it for every
 * option and keeps an option's own {@code defaultValue} where this answers null.
 */
abstract class OptionDefaults implements IDefaultValueProvider {
    private final Map<String, String> byName;

    OptionDefaults(Map<String, String> byName) {
        this.byName = Map.copyOf(Objects.requireNonNull(byName, "byName"));
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        return arg instanceof OptionSpec o ? byName.get(o.longestName()) : null;
    }
}
