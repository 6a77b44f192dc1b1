package dev.gpureactor.cli;

import dev.gpureactor.soak.Soak;
import dev.gpureactor.soak.SoakConfig;
import dev.gpureactor.soak.SoakReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code gar soak}: the fault-injecting soak of {@link Soak}; exits 0 when every invariant held, 1 when one did not. */
@Command(name = "soak", mixinStandardHelpOptions = true, defaultValueProvider = SoakCommand.Defaults.class,
        description = {"Soak the reactor with faults on the simulated device: futures across several lines and all 8 slots,"
                + " random fates (cancel, timeout, interrupt, failed stream, lost word, store into failure), random waits;"
                + " then check and print the invariants (one terminal state each, the expected one; no lost, duplicated or"
                + " wrong wake; registrations back to 0; no parker died; no carrier pinned (JFR); heap stable; off-heap returned);"
                + " then close a reactor under load (every joiner answered, no live thread stranded, carriers leave).",
                "Exit status: 0 when every invariant held, 1 when one did not, 2 on bad options."})
final class SoakCommand implements Callable<Integer> {
    @Option(names = "--futures", description = "Futures in all, split over the rounds (default: ${DEFAULT-VALUE}).", defaultValue = "20000")
    long futures;

    @Option(names = "--seconds", description = "Device time to pace the run to; 0 runs as fast as it can (default: ${DEFAULT-VALUE}).",
            defaultValue = "30")
    long seconds;

    @Mixin
    RunOptions.Rounds rounds;

    @Option(names = "--lines", description = "Completion lines, 8 slots each (default: ${DEFAULT-VALUE}).", defaultValue = "4")
    int lines;

    @Mixin
    ReactorOptions.Carriers carriers;

    @Option(names = "--seed", description = "Seed of every random choice (default: from the clock, printed).")
    Long seed;

    @Mixin
    ReactorOptions.Plan plan;

    @Option(names = "--settle-ms", description = "How long a finished device's wait may stay unsettled before it is a lost wake (default: ${DEFAULT-VALUE}).",
            defaultValue = "10000")
    long settleMs;

    @Option(names = "--close-waits", description = "Waits in flight when the close phase closes its reactor under load, after the rounds; 0 skips it (default: ${DEFAULT-VALUE}).",
            defaultValue = "2000")
    int closeWaits;

    @Mixin
    OutputOptions.JsonFlag json;

    /** The soak's rounds. */
    static final class Defaults extends OptionDefaults {
        Defaults() { super(Map.of("--rounds", "10")); }
    }

    @Override
    public Integer call() {
        SoakConfig c = SoakConfig.defaults(seed != null ? seed : System.nanoTime())
                .withFutures(futures).withSeconds(seconds).withRounds(rounds.rounds).withLines(lines)
                .withSettle(Duration.ofMillis(settleMs)).withCloseWaits(closeWaits);
        if (carriers.value().isPresent()) c = c.withCarriers(carriers.value().getAsInt());
        if (plan.value().isPresent()) c = c.withPlan(plan.value().get());
        PrintStream progress = json.progress();
        SoakReport r = Soak.run(c, progress::println);
        System.out.print(json.json ? r.json() : r.text());
        return r.ok() ? 0 : 1;
    }
}
