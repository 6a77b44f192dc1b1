package dev.gpureactor.reliability;

import dev.gpureactor.loom.GpuReactor;
import dev.gpureactor.soak.ClosePhase;

/**
 * The soak's close phase in a JVM of its own (run by {@link SoakCloseUnderLoadTest}, which checks
 * that this JVM then exits by itself). Prints the phase's result as {@code key=value} facts, then
 * {@code done}; never calls {@code System.exit}.
 *
 * <p>Args: waits, seed.
 */
public final class SoakCloseMain {
    public static void main(String[] args) {
        ClosePhase.Result r = ClosePhase.run(Integer.parseInt(args[0]), GpuReactor.defaultCarriers(), Long.parseLong(args[1]));
        System.out.println("waits=" + r.waits());
        System.out.println("inFlightAtClose=" + r.inFlightAtClose());
        System.out.println("values=" + r.values());
        System.out.println("shutDown=" + r.shutDown());
        System.out.println("wrong=" + r.wrong());
        System.out.println("unanswered=" + r.unanswered());
        System.out.println("liveThreads=" + r.liveThreads());
        System.out.println("carriersLeft=" + r.carriersLeft());
        System.out.println("executorTerminated=" + r.executorTerminated());
        System.out.println("detail=" + r.detail());
        System.out.println("done");
    }
}
