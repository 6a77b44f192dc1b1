package dev.gpureactor.bench.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Jetty service benchmark ({@link JettyServiceBench}) at smoke size: both modes served on Jetty,
 * every request was answered once and right, no registration was left, the reactor mode's handlers ran
 * on the reactor's carriers and the watcher mode's on the JDK's scheduler, and Jetty's own threads
 * were charged to the server group. No timing is asserted: the numbers are docs/SERVICE.md's.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JettyServiceSmokeTest {
    @Test
    void both_modes_serve_on_jetty_and_every_request_is_answered_once_and_right() throws Exception {
        ServiceBench.Settings s = new ServiceBench.Settings(Mode.parseList("reactor,watcher"), List.of(8), 2, Duration.ZERO,
                Duration.ofMillis(300), Duration.ofMillis(1000), 1_000_000, 2, 0, 8, true, Mode.BuilderHook.NONE);
        ServiceRun run = ServiceBench.run(s, ServiceBench.Progress.NONE, ServiceBench.Host.basic(), new JettyFront());
        System.out.print(run.table());
        assertTrue(run.notes().stream().anyMatch(n -> n.startsWith("server: Jetty 12.")), "the report names the server: " + run.notes());
        assertEquals(4, run.cells().size(), "two modes, two rounds: each mode's server is started again per cell");
        for (Cell c : run.cells()) {
            assertTrue(c.requests() > 0, c.mode() + " served no request in its window");
            assertEquals(0, c.counts().lost() + c.counts().doubled() + c.counts().wrong() + c.counts().failed(), c.mode() + ": " + c.counts());
            assertEquals(0, c.registrationsAfter(), c.mode() + " left registrations");
            assertTrue(c.groupCores().get("http-dispatcher") > 0, c.mode() + ": Jetty's selector threads are the server's: " + c.groupCores());
        }
        assertTrue(run.correct());
        // By thread name: the carriers group also holds the pool's watch thread (gar-carrier-watch).
        assertTrue(run.cells().stream().filter(c -> c.mode().equals("reactor")).allMatch(c -> c.threadCores().getOrDefault("gar-carrier-", 0.0) > 0),
                "the reactor mode's handlers ran on its carriers");
        // The JDK's scheduler runs the JDK's own I/O pollers in both modes (the library starts them there, never on a
        // reactor's carriers); the handlers add to it only in the watcher mode, where they run on Jetty's default
        // virtual threads: the reactor mode's share is under half of the least the watcher mode's reads.
        double watcherLeast = run.cells().stream().filter(c -> c.mode().equals("watcher"))
                .mapToDouble(c -> c.groupCores().get("jdk-scheduler")).min().orElseThrow();
        assertTrue(watcherLeast > 0, "the watcher mode's handlers ran on Jetty's default virtual threads, the JDK's scheduler");
        assertTrue(run.cells().stream().filter(c -> c.mode().equals("reactor")).allMatch(c -> c.groupCores().get("jdk-scheduler") < watcherLeast / 2),
                "and the reactor mode's not on the JDK's scheduler: " + run.cells());
    }
}
