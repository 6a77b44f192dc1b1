package dev.gpureactor.consumer;

import dev.gpureactor.core.Warning;
import dev.gpureactor.loom.GpuReactor;

/**
 * Where the library was loaded from (its module, or the class path) and the coded warnings a default
 * reactor raises there: scripts/consumer.sh checks that the JVM flags of each path open the carrier
 * pool, and that without them the fallback warning names the flag in that path's form.
 */
public final class Flags {
    private Flags() {}

    public static void main(String[] args) {
        Module library = GpuReactor.class.getModule();
        System.out.println("library-module=" + (library.isNamed() ? library.getName() : "unnamed"));
        try (GpuReactor reactor = GpuReactor.open()) {
            for (Warning w : reactor.warnings()) System.out.println("warning=" + w.code().name() + " " + w.message());
        }
    }
}
