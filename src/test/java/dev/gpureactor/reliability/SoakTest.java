package dev.gpureactor.reliability;

import dev.gpureactor.cli.Gar;
import dev.gpureactor.soak.Fate;
import dev.gpureactor.soak.PinWatch;
import dev.gpureactor.soak.Soak;
import dev.gpureactor.soak.SoakConfig;
import dev.gpureactor.soak.SoakReport;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The short form of {@code gar soak} for CI (about half a minute here): every invariant of the
 * soak must hold, and every kind of fault must have been injected. The seed is printed, and
 * {@code -Dgar.soak.seed=N} replays a run's plans and fates (not its thread timing).
 */
class SoakTest {
    private static final long FUTURES = 8_000, SECONDS = 20;

    @Test
    void a_short_soak_with_faults_keeps_every_invariant() {
        long seed = Long.getLong("gar.soak.seed", System.nanoTime());
        SoakConfig config = SoakConfig.defaults(seed).withFutures(FUTURES).withSeconds(SECONDS).withRounds(10).withLines(4);
        SoakReport r = Soak.run(config, System.out::println);
        System.out.print(r.text());

        assertEquals(FUTURES, r.futures());
        assertEquals(r.futures(), r.observed(), "every future's outcome was observed");
        for (Fate f : Fate.values()) assertTrue(r.injected().getOrDefault(f, 0L) > 0, "no " + f.label() + " in seed " + seed);
        assertTrue(r.platformJoiners() > 0, "some joins came from platform threads");
        assertEquals(0, r.wakes().lost(), "lost wakes, seed " + seed);
        assertEquals(0, r.wakes().duplicated(), "duplicated wakes, seed " + seed);
        assertEquals(0, r.wakes().wrong(), "wrong wakes, seed " + seed);
        assertEquals(0, r.wakes().mismatched(), "mismatched outcomes, seed " + seed);
        assertEquals(0, r.wakes().hung(), "hung waits, seed " + seed);
        assertEquals(r.lostWords().expected(), r.lostWords().seen(), "one WordNeverWritten warning per lost word");
        assertAll(r.invariants().stream().map(i -> () ->
                assertEquals(SoakReport.Verdict.PASS, i.verdict(), i.name() + ": " + i.detail() + " (seed " + seed + ")")));
        assertTrue(r.ok());
    }

    /** Holds a virtual thread in a class initializer, which pins it: the control for the JFR count. */
    static final class SlowInit {
        static final long LOADED;

        static {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            LOADED = System.nanoTime();
        }

        static long touch() { return LOADED; }
    }

    @Test
    void the_pin_watch_counts_a_pinned_virtual_thread_after_the_warm_up_mark() throws Exception {
        PinWatch w = PinWatch.start();
        w.warmedUp();
        Thread vt = Thread.ofVirtual().start(SlowInit::touch);
        vt.join(TimeUnit.SECONDS.toMillis(60));
        PinWatch.Pins p = w.stop();
        assertTrue(p.unavailable().isEmpty(), p.unavailable().toString());
        assertTrue(p.events() >= 1, "a virtual thread parked in a class initializer is pinned: " + p);
        assertTrue(p.samples().stream().anyMatch(s -> s.contains("SlowInit")), p.samples().toString());
    }

    @Test
    void the_command_prints_json_and_exits_0_when_every_invariant_held() {
        PrintStream out = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            code = Gar.commandLine().execute("soak", "--futures", "400", "--seconds", "0", "--rounds", "10", "--lines", "1",
                    "--seed", "7", "--json");
        } finally {
            System.setOut(out);
        }
        String json = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(json);
        assertEquals(0, code, json);
        assertTrue(json.startsWith("{\"futures\":400,\"observed\":400,"), json);
        assertTrue(json.contains("\"lostWakes\":0,\"duplicatedWakes\":0"), json);
        assertTrue(json.trim().endsWith("\"ok\":true}"), json);
    }

    @Test
    void a_bad_option_is_a_coded_error_and_exit_status_2() {
        StringWriter err = new StringWriter();
        var cl = Gar.commandLine();
        cl.setErr(new PrintWriter(err));
        assertEquals(2, cl.execute("soak", "--lines", "0"));
        assertTrue(err.toString().contains("GAR-0022 InvalidArgument: lines = 0 is invalid; expected 1..64"), err.toString());
    }
}
