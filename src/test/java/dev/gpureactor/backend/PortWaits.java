package dev.gpureactor.backend;

import dev.gpureactor.core.Clock;
import dev.gpureactor.core.CompletionPort;
import dev.gpureactor.core.Outcome;
import dev.gpureactor.core.Sleeper;
import dev.gpureactor.core.Wait;
import dev.gpureactor.core.WaitPlan;

import java.util.Optional;
import java.util.OptionalLong;

/** The wait the CUDA and HIP line tests run on a port: a plan on the system clock, no deadline. */
public final class PortWaits {
    /** Park 50 us at a time, query every millisecond. */
    public static final WaitPlan FLAG = new WaitPlan.FlagWait(50_000, 1_000_000, Optional.empty());

    private PortWaits() {}

    public static Outcome await(CompletionPort port, WaitPlan plan) throws InterruptedException {
        return Wait.run(plan, port, Clock.system(), Sleeper.system(), OptionalLong.empty());
    }
}
