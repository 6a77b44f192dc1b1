package dev.gpureactor.cli;

import dev.gpureactor.backend.Standin;
import dev.gpureactor.backend.StandinHooks;
import dev.gpureactor.backend.cuda.CudaDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code gar gpu-bench --json} in process on the stand-in CUDA driver: the JSON has every field
 * docs/GPU.md names, every waiter and both round-trip variants ran, and every wait completed. No
 * timing assertions: the numbers of a stand-in say nothing.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class GpuBenchCommandTest {
    static final List<String> WAITERS = List.of("reactor-hardware", "reactor-fallback", "reactor-jdk", "cuStreamSynchronize",
            "cuStreamQuery-poll");

    @Test
    void onTheStandinEveryWaitCompletesAndTheJsonHasItsFields() {
        DemoCommandTest.Run r = DemoCommandTest.gar(CudaDriver.LIBRARY_PROPERTY, Standin.library(Standin.CUDA),
                "gpu-bench", "--json", "--iterations", "30", "--warmup", "5", "--delay-us", "200");
        assertEquals(0, r.code(), r.err());
        String json = r.out().strip();
        for (String field : List.of("\"measurement\":\"gpu-bench\"", "\"label\":\"stand-in\"", "\"device\":", "\"hardware_park\":",
                "\"cores\":", "\"config\":", "\"wake\":", "\"rtt\":", "\"warnings\":", "\"complete\":true")) {
            assertTrue(json.contains(field), field + " missing from " + json);
        }
        for (String w : WAITERS) assertTrue(json.contains("\"waiter\":\"" + w + "\""), w + " did not run: " + json);
        for (String v : List.of("reactor-hardware", "reactor-fallback")) {
            assertTrue(json.contains("\"variant\":\"" + v + "\""), v + " round trip did not run: " + json);
        }
        Matcher m = Pattern.compile("\"asked\":(\\d+),\"completed\":(\\d+)").matcher(json);
        int results = 0;
        while (m.find()) {
            assertEquals("30", m.group(1));
            assertEquals(m.group(1), m.group(2), "every wait completed: " + json);
            results++;
        }
        assertEquals(WAITERS.size() + 2, results, json);
        Matcher errors = Pattern.compile("\"error\":\"([^\"]*)\"").matcher(json);
        while (errors.find()) assertEquals("", errors.group(1), json);
        Matcher p50 = Pattern.compile("\"(wake_ns|half_rtt_ns)\":\\{\"count\":(\\d+),\"p50\":(\\d+),\"p99\":(\\d+),\"max\":(\\d+)").matcher(json);
        int stats = 0;
        while (p50.find()) {
            assertEquals("30", p50.group(2));
            long a = Long.parseLong(p50.group(3)), b = Long.parseLong(p50.group(4)), c = Long.parseLong(p50.group(5));
            assertTrue(a <= b && b <= c, "p50 <= p99 <= max: " + p50.group());
            stats++;
        }
        assertEquals(WAITERS.size() + 2, stats, json);
    }

    /**
     * A device without stream memory operations (the stand-in's attribute 122 reads 0, as under a GPU
     * proxy that lacks them): the run says so with the coded error, runs no wake waiter, and still
     * measures the query plan's round trip, every one of it, with exit status 0.
     */
    @Test
    void aDeviceWithoutStreamMemOpsIsUnsupportedHereCodedAndTheQueryPlanStillMeasuresARoundTrip() {
        degraded("attr_122", 0, "GAR-0023");
    }

    /** Mapped host memory refused by the driver (the stand-in's allocation fails): the same degradation, its own code. */
    @Test
    void mappedHostMemoryRefusedIsUnsupportedHereCodedAndTheQueryPlanStillMeasuresARoundTrip() {
        degraded("fail_alloc", -1, "GAR-0008");
    }

    private static void degraded(String fault, long value, String code) {
        StandinHooks hooks = new StandinHooks(Standin.library(Standin.CUDA));
        hooks.reset();
        hooks.set(fault, value);
        DemoCommandTest.Run r;
        try {
            r = DemoCommandTest.gar(CudaDriver.LIBRARY_PROPERTY, Standin.library(Standin.CUDA),
                    "gpu-bench", "--json", "--iterations", "30", "--warmup", "5");
        } finally {
            hooks.reset();
        }
        assertEquals(0, r.code(), r.err());
        String json = r.out().strip();
        assertTrue(json.contains("\"unsupported\":\"" + code), code + " expected in " + json);
        assertTrue(json.contains("\"wake\":[]"), "no wake waiter runs: " + json);
        assertTrue(json.contains("\"variant\":\"query-plan\",\"park\":\"cuStreamQuery poll on a platform thread\",\"asked\":30,\"completed\":30"),
                "the query plan's round trips all completed: " + json);
        assertTrue(json.contains("\"complete\":true"), json);
    }

    @Test
    void aMissingDriverIsACodedErrorAndExitStatus2() {
        DemoCommandTest.Run r = DemoCommandTest.gar(CudaDriver.LIBRARY_PROPERTY, "/nonexistent/libcuda.so.1", "gpu-bench", "--json");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("NativeUnavailable"), r.err());
    }
}
