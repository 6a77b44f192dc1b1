package dev.gpureactor.soak;

import dev.gpureactor.loom.GpuReactor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The soak's snapshot at a lost wake names what a carrier runs: a virtual thread pinned in a class
 * initializer shows as mounted on its carrier, with its frames, and parked ones are grouped.
 */
class ThreadSnapshotTest {
    /** Released by the test: until then, the thread that initializes {@link Held} is parked inside its initializer (pinned). */
    static final CountDownLatch RELEASE = new CountDownLatch(1);
    static final CountDownLatch INSIDE = new CountDownLatch(1);

    static final class Held {
        static final long AT;

        static {
            INSIDE.countDown();
            try {
                RELEASE.await(); // untimed: the state is WAITING, pinned (the test releases it in any case)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            AT = System.nanoTime();
        }

        static long touch() { return AT; }
    }

    @Test
    void a_pinned_virtual_thread_is_named_with_its_carrier_and_parked_ones_are_grouped() throws Exception {
        Thread pinned = Thread.ofVirtual().name("snapshot-pinned").start(Held::touch);
        List<Thread> parked = new ArrayList<>();
        CountDownLatch parkedAll = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            parked.add(Thread.ofVirtual().name("snapshot-parked-" + i).start(() -> {
                parkedAll.countDown();
                LockSupport.park(RELEASE);
            }));
        }
        try {
            assertTrue(INSIDE.await(30, TimeUnit.SECONDS), "the pinned thread entered the initializer");
            assertTrue(parkedAll.await(30, TimeUnit.SECONDS), "the parked threads ran");
            waitUntil(() -> pinned.getState() == Thread.State.WAITING && parked.stream().allMatch(t -> t.getState() == Thread.State.WAITING));

            List<String> lines = ThreadSnapshot.lines(14, 50);

            String mounted = lines.stream().filter(l -> l.startsWith("virtual snapshot-pinned #")).findFirst()
                    .orElseThrow(() -> new AssertionError("the pinned thread is not listed as mounted: " + lines));
            assertTrue(mounted.matches("virtual snapshot-pinned #\\d+ mounted on ForkJoinPool-\\d+-worker-\\d+: WAITING.*"), mounted);
            assertTrue(mounted.contains("ThreadSnapshotTest$Held.<clinit>"), mounted);
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("3 unmounted virtual threads WAITING")
                    && l.contains("LockSupport.park") && l.contains("ThreadSnapshotTest")), lines.toString());
            assertTrue(lines.stream().noneMatch(l -> l.contains("snapshot-parked")), "the parked threads are grouped, not listed: " + lines);
        } finally {
            RELEASE.countDown();
            parked.forEach(LockSupport::unpark);
            pinned.join(TimeUnit.SECONDS.toMillis(30));
            for (Thread t : parked) t.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    /** Released by the test: until then, the reactor's thread that initializes {@link HeldOnCarrier} is pinned inside it. */
    static final CountDownLatch RELEASE_CARRIER = new CountDownLatch(1);
    static final CountDownLatch INSIDE_CARRIER = new CountDownLatch(1);

    static final class HeldOnCarrier {
        static final long AT;

        static {
            INSIDE_CARRIER.countDown();
            try {
                RELEASE_CARRIER.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            AT = System.nanoTime();
        }

        static long touch() { return AT; }
    }

    @Test
    void a_virtual_thread_pinned_on_the_reactors_one_carrier_is_named_with_that_carrier() throws Exception {
        try (GpuReactor r = GpuReactor.builder().carriers(1).jmx(false).build()) {
            Thread pinned = r.threadFactory().newThread(HeldOnCarrier::touch);
            pinned.start();
            try {
                assertTrue(INSIDE_CARRIER.await(30, TimeUnit.SECONDS), "the reactor's thread entered the initializer");
                waitUntil(() -> pinned.getState() == Thread.State.WAITING);
                List<String> lines = ThreadSnapshot.lines(14, 50);
                String name = pinned.getName();
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("virtual " + name + " #") && l.contains(" mounted on gar-carrier-")
                        && l.contains("HeldOnCarrier.<clinit>")), lines.toString());
            } finally {
                RELEASE_CARRIER.countDown();
                pinned.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier c) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!c.getAsBoolean()) {
            assertTrue(System.nanoTime() - end < 0, "timed out");
            LockSupport.parkNanos(1_000_000);
        }
    }
}
