package dev.gpureactor.bench.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The service benchmark at smoke size ({@code --quick}: 8 clients, about 2 s per mode): every mode
 * served requests, and every request was answered once with the right payload (or, for one in 40,
 * its fate's answer), with no registration left and the contract kept for every fate. No timing is asserted.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServiceSmokeTest {
    @Test
    void every_mode_serves_and_every_request_is_answered_once_and_right() throws Exception {
        ServiceBench.Settings s = new ServiceBench.Settings(Mode.parseList("reactor,reactor-jdk,watcher,sleep1"), List.of(8), 1,
                Duration.ZERO, Duration.ofMillis(500), Duration.ofMillis(1500), 1_000_000, 2, 0, 8, true, Mode.BuilderHook.NONE);
        ServiceRun run = ServiceBench.run(s, ServiceBench.Progress.NONE);
        System.out.print(run.table());
        assertTrue(run.notes().isEmpty(), "the clients ran on carriers of their own: " + run.notes());
        assertEquals(4, run.cells().size());
        for (Cell c : run.cells()) {
            assertTrue(c.requests() > 0, c.mode() + " served no request in its window");
            assertTrue(c.counts().issued() >= c.requests(), c.mode() + ": " + c.counts());
            assertEquals(0, c.counts().lost(), c.mode() + " lost requests: " + c.counts());
            assertEquals(0, c.counts().doubled(), c.mode() + " answered requests twice: " + c.counts());
            assertEquals(0, c.counts().wrong(), c.mode() + " gave wrong answers: " + c.counts());
            assertEquals(0, c.counts().failed(), c.mode() + " had failed requests: " + c.counts());
            assertEquals(0, c.registrationsAfter(), c.mode() + " left registrations");
            assertTrue(c.wakeMicros()[0] >= 0 && c.clientMicros()[0] > 0, c.mode() + ": latencies were recorded");
            Fates.Counts f = c.fates();
            assertEquals(c.counts().issued() / Fate.EVERY, f.fated(), c.mode() + ": 1 request in 40 had a fate: " + f);
            assertTrue(f.fated() >= 3, c.mode() + ": enough requests for each fate: " + f);
            assertEquals(f.fated(), f.timedOut() + f.cancelled() + f.interrupted() + f.beaten(), c.mode() + ": every fated request was answered: " + f);
            assertEquals(f.timedOut() + f.interrupted(), f.completedLater(), c.mode() + ": every wait left pending completed later: " + f);
            assertEquals(0, f.violations(), c.mode() + ": the contract held: " + f);
        }
        assertTrue(run.table().contains("Fates (1 request in 40"), run.table());
        assertTrue(run.correct());
        assertEquals(5, run.goals().size(), "the goals are judged for the reactor mode at the one level");
        assertTrue(run.cells().stream().filter(c -> c.mode().equals("reactor")).allMatch(c -> c.groupCores().get("carriers") > 0),
                "the reactor's handlers ran on its carriers");
        assertTrue(run.cells().stream().filter(c -> c.mode().equals("watcher")).allMatch(c -> c.groupCores().get("watcher") > 0),
                "the watcher thread is charged");
        if (OsThreads.take().available()) { // Linux: the OS tells each thread's sleeps, under its name cut to 15 characters
            assertTrue(run.cells().stream().filter(c -> c.mode().equals("watcher")).allMatch(c -> c.groupSleeps().get("watcher") > 0),
                    "the watcher's ticks are its sleeps, found under its cut name");
            assertTrue(run.cells().stream().filter(c -> c.mode().equals("reactor")).allMatch(c -> c.groupSleeps().get("parkers") > 0),
                    "the parkers' parks are their sleeps");
            assertTrue(run.table().contains("OS sleeps per request by thread group"), run.table());
        }
    }

    /**
     * A second run in the same JVM still serves: closing the first run's load generator must not
     * leave the JDK's I/O poller to a continuation its pool rejects (that killed the poller thread
     * and hung every later socket read; seen before LoadThreads stopped shutting its pool down).
     * The second run also takes a short warm-up profile: one wake p50 per second, and the ratio.
     */
    @Test
    void a_second_run_in_the_same_jvm_still_serves_and_profiles_the_warm_up() throws Exception {
        for (int i = 0; i < 2; i++) {
            ServiceBench.Settings s = new ServiceBench.Settings(Mode.parseList("watcher"), List.of(4), 1,
                    i == 0 ? Duration.ofMillis(300) : Duration.ZERO, Duration.ofMillis(200),
                    Duration.ofMillis(500), 1_000_000, 2, i == 0 ? 0 : 8, 4, false, Mode.BuilderHook.NONE);
            ServiceRun run = ServiceBench.run(s, ServiceBench.Progress.NONE);
            Cell c = run.cells().getFirst();
            assertTrue(c.requests() > 0 && c.counts().failed() == 0 && run.correct(), "run " + i + ": " + c.counts());
            assertTrue(Double.isNaN(c.warmupRatio()) && c.wakeP50PerSecond().isEmpty(), "a measured cell has no profile");
            assertEquals(Fates.Counts.NONE, c.fates(), "no fates when they are off");
            assertEquals(1, c.round(), "the pre-warm cell of the first run is not recorded");
            if (i == 1) {
                assertEquals(2, run.cells().size());
                Cell profile = run.cells().getLast();
                assertEquals(0, profile.round(), "the profile cell is not a round");
                assertEquals(8, profile.wakeP50PerSecond().size(), profile.wakeP50PerSecond().toString());
                assertTrue(Double.isFinite(profile.warmupRatio()) && profile.warmupRatio() > 0, "ratio " + profile.warmupRatio());
                assertTrue(run.table().contains("Warm-up profile at 4 clients"), run.table());
            }
            Thread.sleep(300); // past the moment the poller's late wake-up arrived
        }
    }
}
