package dev.gpureactor.cli;

import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;
import dev.gpureactor.backend.cuda.CudaDriver;
import dev.gpureactor.backend.hip.HipRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code gar demo} in process, as {@code main} runs it ({@link Gar#commandLine()}): on the simulated
 * device, on the CUDA and HIP bindings pointed at the stand-in drivers (the property each binding
 * reads), and with a driver library that is not there.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DemoCommandTest {
    /** One FILL line: slot, completion, the work's end, the read-back value, the future's state. */
    static final Pattern WAIT = Pattern.compile(
            "slot (\\d) done after +([\\d.]+) ms \\((store at|work done at) +([\\d.]+) ms, woke +[\\d.]+ us later\\), read back (\\d+), (\\w+)");

    record Run(int code, String out, String err) {}

    /** Runs {@code gar args...} with {@code property} set to {@code value} (restored after; null: untouched). */
    static Run gar(String property, String value, String... args) {
        String before = property == null ? null : System.getProperty(property);
        if (property != null) System.setProperty(property, value);
        PrintStream out = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int code;
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            var cl = Gar.commandLine();
            cl.setErr(new PrintWriter(err, true));
            code = cl.execute(args);
        } finally {
            System.setOut(out);
            if (property != null) {
                if (before == null) System.clearProperty(property);
                else System.setProperty(property, before);
            }
        }
        Run r = new Run(code, bytes.toString(StandardCharsets.UTF_8), err.toString());
        System.out.print(r.out());
        System.out.print(r.err());
        return r;
    }

    /** Three waits, on slots 0, 1, 2, that succeeded with 100, 101, 102 after at least 2, 4, 6 ms of work. */
    static void assertThreeWaits(Run r, String workLabel) {
        Matcher m = WAIT.matcher(r.out());
        for (int i = 0; i < 3; i++) {
            assertTrue(m.find(), "wait " + i + " is missing from:\n" + r.out());
            String line = m.group();
            assertEquals(i, Integer.parseInt(m.group(1)), line);
            assertEquals(workLabel, m.group(3), line);
            assertEquals(100 + i, Integer.parseInt(m.group(5)), "the payload read back: " + line);
            assertEquals("SUCCESS", m.group(6), line);
            double done = Double.parseDouble(m.group(2)), work = Double.parseDouble(m.group(4));
            double d = 2.0 * (i + 1);
            assertTrue(work >= d, String.format(Locale.ROOT, "the work of slot %d ran %.2f ms, not at least %.0f: %s", i, work, d, line));
            assertTrue(done >= work, "woke before the work ended: " + line);
        }
        assertFalse(m.find(), "more than three waits:\n" + r.out());
        assertTrue(r.out().contains("a fourth virtual thread ran "), r.out());
        assertTrue(r.out().contains("run stats: polls "), r.out());
    }

    @Test
    void the_sim_demo_completes_three_waits_with_their_payloads() {
        Run r = gar(null, null, "demo");
        assertEquals(0, r.code(), r.err());
        assertThreeWaits(r, "store at");
        assertFalse(r.out().contains("device: "), "the sim header is unchanged: " + r.out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "cuda | work: each stream runs the kernel gar_spin_ns for d ms of GPU time",
        "hip | work: no kernel runs; each stream runs a host function (hipLaunchHostFunc)"})
    void the_driver_demo_runs_on_the_stand_in(String backend, String work) {
        boolean cuda = backend.equals("cuda");
        String lib = Standin.library(cuda ? Standin.CUDA : Standin.HIP);
        String property = cuda ? CudaDriver.LIBRARY_PROPERTY : HipRuntime.LIBRARY_PROPERTY;
        StandinHooks hooks = new StandinHooks(lib);
        hooks.reset();
        Run r = gar(property, lib, "demo", "--backend", backend);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("device: " + backend + " " + lib), r.out());
        assertTrue(r.out().contains(work), r.out());
        assertThreeWaits(r, "work done at");
        assertDriverUse(hooks, r);
        if (cuda) {
            // the jar's fatbin (the build has nvcc): per wait one gar_spin_ns and one gar_write_byte
            assertEquals(1, hooks.counter("module_load"));
            assertEquals(1, hooks.counter("module_unload"), "the module is unloaded after the streams");
            assertEquals(2L * STORES, hooks.counter("kernel_launch"), r.out());
        }
        assertEquals(STORES, hooks.counter("write_value"), "one stream write-value per wait");
    }

    /** Every round's three stores (the warm-up rounds and the printed one) and the slow wait's. */
    static final int STORES = (DemoCommand.WARM_UP_ROUNDS + 1) * 3 + 1;

    /** The warm-up rounds and the printed one, three stores each on three streams, and the slow wait's; everything given back, nothing freed under a store. */
    static void assertDriverUse(StandinHooks hooks, Run r) {
        assertEquals(STORES, hooks.counter("writes_done"), "every round's three stores and the slow wait's landed");
        assertEquals(3, hooks.counter("stream_create"));
        assertEquals(2, hooks.counter("host_alloc"), "the line's page and the payload page");
        assertEquals(2, hooks.counter("host_free"), "both pages freed after the streams settled");
        assertEquals(0, hooks.counter("free_under_pending"));
        assertEquals(hooks.counter("primary_retain"), hooks.counter("primary_release"), "every context reference given back");
        assertFalse(r.out().contains("LineLeaked"), r.out());
    }

    @ParameterizedTest
    @CsvSource({"cuda, gar.cuda.library, /nonexistent/libcuda.so.1", "hip, gar.hip.library, /nonexistent/libamdhip64.so"})
    void a_missing_driver_is_a_coded_error_and_exit_2(String backend, String property, String path) {
        Run r = gar(property, path, "demo", "--backend", backend);
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("gar demo: --backend " + backend + " cannot run: GAR-0013 NativeUnavailable: native library "
                + path + " is unavailable: no such file"), r.err());
        assertTrue(r.err().contains("-D" + property), "says which property names the library: " + r.err());
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), "no stack trace: " + r.err());
        assertFalse(r.out().contains("slot "), "nothing ran: " + r.out());
    }

    @Test
    void a_cuda_driver_without_the_store_is_a_coded_error_naming_the_symbol() {
        String lib = Standin.library(Standin.CUDA_NO_V2);
        Run r = gar(CudaDriver.LIBRARY_PROPERTY, lib, "demo", "--backend", "cuda");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("GAR-0013 NativeUnavailable: native library " + lib
                + " is unavailable: it has no symbol cuStreamWriteValue64_v2"), r.err());
        assertFalse(r.out().contains("slot "), "nothing ran: " + r.out());
    }

    @Test
    void an_unknown_backend_is_a_coded_error_and_exit_2() {
        Run r = gar(null, null, "demo", "--backend", "metal");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("GAR-0022 InvalidArgument: backend = metal is invalid; expected sim, cuda, hip"), r.err());
    }

    @Test
    void the_demo_states_its_machine_and_why_its_wakes_differ() {
        Run r = gar(null, null, "demo");
        assertEquals(0, r.code(), r.err());
        assertTrue(Pattern.compile("machine: .+ \\(" + Pattern.quote(System.getProperty("os.arch")) + "\\), "
                + Runtime.getRuntime().availableProcessors() + " cores").matcher(r.out()).find(), r.out());
        assertTrue(r.out().contains("shares these " + Runtime.getRuntime().availableProcessors() + " cores with the parker"), r.out());
    }

    @Test
    void demo_jfr_writes_a_recording_with_the_waits(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("demo.jfr");
        Run r = gar(null, null, "demo", "--jfr", file.toString());
        assertEquals(0, r.code(), r.err());
        assertThreeWaits(r, "store at");
        assertTrue(r.out().contains("JFR recording: " + file), r.out());
        var waits = jdk.jfr.consumer.RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.gpureactor.Wait")).toList();
        // 41 FILL rounds of three waits and the slow wait, each with a readback: every one recorded, completed.
        assertEquals(3 * (DemoCommand.WARM_UP_ROUNDS + 1) + 1, waits.size());
        assertTrue(waits.stream().allMatch(e -> e.getString("outcome").equals("COMPLETED")), () -> waits.toString());
    }

    @Test
    void a_default_recording_of_the_demo_holds_its_slow_wait(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("default.jfr");
        Run r;
        try (jdk.jfr.Recording rec = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("default"))) {
            rec.start();
            r = gar(null, null, "demo");
            rec.stop();
            rec.dump(file);
        }
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("a slow wait: " + DemoCommand.SLOW_WORK.toMillis() + " ms of device work, done after "), r.out());
        var waits = jdk.jfr.consumer.RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.gpureactor.Wait")).toList();
        // The slow wait (payload 7) is recorded, and only waits over the default threshold are.
        assertTrue(waits.stream().anyMatch(e -> e.getDuration().toMillis() >= 20 && e.getString("outcome").equals("COMPLETED")),
                () -> "no wait over 20 ms: " + waits);
        assertTrue(waits.stream().allMatch(e -> e.getDuration().toMillis() >= 20), () -> waits.toString());
    }
}
