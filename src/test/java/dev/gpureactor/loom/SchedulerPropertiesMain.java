package dev.gpureactor.loom;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by {@link SchedulerPropertiesTest} in a child JVM (the JDK's scheduler properties are the JVM's):
 * the default carrier count under each setting, then a reactor under {@code maxPoolSize=1}.
 */
public final class SchedulerPropertiesMain {
    private SchedulerPropertiesMain() {}

    public static void main(String[] args) throws Exception {
        System.out.println("cores=" + Runtime.getRuntime().availableProcessors());
        System.out.println("default=" + GpuReactor.defaultCarriers());
        System.setProperty("jdk.virtualThreadScheduler.parallelism", "3");
        System.out.println("parallelism3=" + GpuReactor.defaultCarriers());
        System.setProperty("jdk.virtualThreadScheduler.maxPoolSize", "2");
        System.out.println("parallelism3.max2=" + GpuReactor.defaultCarriers());
        System.setProperty("jdk.virtualThreadScheduler.parallelism", "many");
        System.clearProperty("jdk.virtualThreadScheduler.maxPoolSize");
        System.out.println("notANumber=" + GpuReactor.defaultCarriers());
        System.clearProperty("jdk.virtualThreadScheduler.parallelism");
        System.setProperty("jdk.virtualThreadScheduler.maxPoolSize", "1");
        try (GpuReactor r = GpuReactor.open()) {
            System.out.println("max1.carriers=" + r.carriers().orElseThrow().size());
            // YieldQueuing's shape: on one carrier, a second thread cannot run while the first spins.
            AtomicBoolean spinning = new AtomicBoolean(true), ranWhileSpinning = new AtomicBoolean();
            AtomicReference<Thread> b = new AtomicReference<>();
            Thread a = r.startVirtualThread(() -> {
                b.set(r.startVirtualThread(() -> ranWhileSpinning.set(spinning.get())));
                long end = System.nanoTime() + 200_000_000L;
                while (System.nanoTime() < end) Thread.onSpinWait();
                spinning.set(false);
            });
            a.join();
            b.get().join();
            System.out.println("max1.secondRanWhileFirstSpun=" + ranWhileSpinning.get());
        }
    }
}
