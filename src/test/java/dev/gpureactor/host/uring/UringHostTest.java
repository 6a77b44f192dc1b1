package dev.gpureactor.host.uring;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import dev.gpureactor.core.Capability;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Strictness;
import dev.gpureactor.core.Warning;
import dev.gpureactor.loom.GpuExecutorService;
import dev.gpureactor.loom.GpuReactor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link UringHost} used as a user would: one call for a builder, the kind chosen, waits awaited on
 * the reactor's virtual threads. Where this host runs io_uring (this project's machines:
 * {@code kernel.io_uring_disabled} reads 0, and {@link UringTestSupport#requireUring} fails rather
 * than skips when the probe then refuses), the reactor runs io-uring and its parkers' deadline sleeps
 * are ring timeouts; the refusal path (the coded fallback and the strict refusal the API promises)
 * runs on every machine through {@code -Dgar.uring.disable}, which makes the probe report io_uring
 * missing without touching the kernel.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UringHostTest {
    /** A deadline sleep in front of the park, so that the parkers sleep to a predicted wake. */
    static final String PREDICT = "flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8";

    @Test
    void one_call_gives_a_reactor_that_runs_io_uring_and_sleeps_on_the_ring() throws Exception {
        UringTestSupport.requireUring();
        List<Warning> warnings = new CopyOnWriteArrayList<>();
        try (GpuReactor r = UringHost.builder().kind(ExecutorKind.IO_URING).plan(PREDICT).warnings(warnings::add).build();
             SimDevice dev = SimDevice.open(); GpuExecutorService exec = r.newExecutor()) {
            // Without the sleeper GpuReactor marks io_uring missing and falls back: running io-uring
            // says both the capability and the sleeper reached the reactor.
            assertEquals(ExecutorKind.IO_URING, r.kind(), r.kindResolution().label());
            assertTrue(warnings.stream().noneMatch(w -> w.code() == ErrorCode.ExecutorFallback), warnings.toString());
            SimStream s = dev.stream();
            for (int i = 0; i < 20; i++) {
                SimStream.Signal sig = s.compute(Duration.ofMillis(2)).signal();
                exec.submit(() -> r.await(sig.descriptor(), sig.port()).join()).get(30, TimeUnit.SECONDS);
            }
            // 2 ms waits at one point: after the first (cold) wait the estimate asks for a deadline
            // sleep, which under io-uring is the ring's IORING_OP_TIMEOUT (UringSleeper).
            assertTrue(r.stats().slept() > 0, "the parker slept to a predicted wake: " + r.stats());
            assertEquals(0L, r.registrations());
        }
    }

    @Test
    void where_io_uring_is_refused_io_uring_falls_back_with_the_coded_warning_or_is_refused_when_strict() {
        String before = System.getProperty(UringProbe.DISABLE_PROPERTY);
        System.setProperty(UringProbe.DISABLE_PROPERTY, "UringHostTest");
        try {
            Capability ring = UringHost.hostCaps().ioUring();
            assertFalse(ring.isPresent());
            assertTrue(ring.missing().orElseThrow().contains("UringHostTest"), ring.toString());
            List<Warning> warnings = new CopyOnWriteArrayList<>();
            try (GpuReactor r = UringHost.builder().kind(ExecutorKind.IO_URING).warnings(warnings::add).build()) {
                assertEquals(ExecutorKind.GPU_REACTOR, r.kind());
                Warning w = warnings.stream().filter(x -> x.code() == ErrorCode.ExecutorFallback).findFirst()
                        .orElseThrow(() -> new AssertionError("no ExecutorFallback warning: " + warnings));
                assertTrue(w.message().contains("UringHostTest"), "the warning says why: " + w.message());
            }
            ReactorException e = assertThrows(ReactorException.class,
                    () -> UringHost.builder().kind(ExecutorKind.IO_URING).strictness(Strictness.STRICT).build().close());
            assertEquals(ErrorCode.ExecutorRefused, e.code());
        } finally {
            if (before == null) System.clearProperty(UringProbe.DISABLE_PROPERTY);
            else System.setProperty(UringProbe.DISABLE_PROPERTY, before);
        }
    }

    @Test
    void configure_keeps_what_the_builder_already_says() {
        // The customizer form: a builder set up elsewhere gets the host, and its own settings stay.
        try (GpuReactor r = UringHost.configure(GpuReactor.builder().name("uring-host-test").jmx(false)).kind(ExecutorKind.GPU_REACTOR).build()) {
            assertEquals("uring-host-test", r.name());
            assertEquals(ExecutorKind.GPU_REACTOR, r.kind());
        }
    }
}
