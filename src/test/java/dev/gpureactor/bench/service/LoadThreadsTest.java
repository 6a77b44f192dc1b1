package dev.gpureactor.bench.service;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load generator's CPU is kept apart from the server's: its carriers, and its pool's timer thread,
 * which runs the clients' socket timeouts and was counted as the JDK scheduler's (server) CPU before.
 */
class LoadThreadsTest {

    private static List<String> delaySchedulers() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.endsWith("-delayScheduler")).toList();
    }

    @Test
    void the_load_pools_timer_thread_is_the_load_generators_and_another_pools_is_not() throws Exception {
        LoadThreads load = LoadThreads.open(1);
        assertTrue(load.separate().isEmpty(), "the scheduler hook is open in the tests (--add-opens java.base/java.lang)");
        List<String> before = delaySchedulers();
        // A timed park of a virtual thread on a ForkJoinPool scheduler is that pool's schedule(): it starts the timer thread.
        Thread client = load.start(() -> {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        client.join();
        List<String> started = delaySchedulers().stream().filter(n -> !before.contains(n)).toList();
        assertEquals(1, started.size(), "the client's sleep started its pool's timer thread: " + started);
        assertTrue(load.owns(started.getFirst()), started.getFirst() + " serves the clients' timeouts");
        assertTrue(load.owns(LoadThreads.PREFIX), "the load carriers' group");

        ForkJoinPool other = new ForkJoinPool(1);
        try {
            other.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get();
            List<String> others = delaySchedulers().stream().filter(n -> !before.contains(n) && !started.contains(n)).toList();
            assertEquals(1, others.size(), "the other pool's timer thread: " + others);
            assertFalse(load.owns(others.getFirst()), "another pool's timer thread (say, the JDK scheduler's) stays the server's");
            assertEquals(ServiceBench.CpuSnapshot.JDK_SCHEDULER, ServiceBench.CpuSnapshot.group(others.getFirst(), load));
            assertEquals(ServiceBench.CpuSnapshot.LOAD, ServiceBench.CpuSnapshot.group(started.getFirst(), load));
        } finally {
            other.shutdownNow();
        }
    }
}
