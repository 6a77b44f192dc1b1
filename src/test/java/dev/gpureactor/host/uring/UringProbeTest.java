package dev.gpureactor.host.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpureactor.core.Capability;
import dev.gpureactor.core.Declared;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Strictness;
import dev.gpureactor.core.Warning;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UringProbeTest {
    private static final UringProbe.Setup NEVER = () -> { throw new AssertionError("setup must not run"); };

    private static UringProbe.Setup refusing(int errno) {
        return () -> new UringProbe.Attempt(errno, "io_uring_setup failed: " + UringProbe.reason(errno));
    }

    @Test
    void theRealProbeAgreesWithTheSysctl() {
        // Fails if io_uring_disabled reads 0 and setup is refused; skips with the reason where it is legitimately off.
        UringTestSupport.requireUring();
        assertEquals(Capability.present(), UringProbe.probe());
    }

    @Test
    void eachErrnoSaysWhy() {
        assertTrue(UringProbe.reason(Sys.ENOSYS).contains("kernel without io_uring"));
        assertTrue(UringProbe.reason(Sys.ENOSYS).contains("ENOSYS"));
        assertTrue(UringProbe.reason(Sys.EPERM).contains("kernel.io_uring_disabled"));
        assertTrue(UringProbe.reason(Sys.EPERM).contains("seccomp"));
        assertTrue(UringProbe.reason(Sys.ENOMEM).contains("RLIMIT_MEMLOCK"));
        assertTrue(UringProbe.reason(77).contains("errno 77"));
    }

    @Test
    void aRefusedSetupIsMissingWithItsReason() {
        Capability c = UringProbe.probe(null, () -> OptionalInt.of(2), refusing(Sys.EPERM));
        assertFalse(c.isPresent());
        String why = c.missing().orElseThrow();
        assertTrue(why.contains("EPERM"), why);
        assertTrue(why.contains("kernel.io_uring_disabled = 2"), why);

        Capability seccomp = UringProbe.probe(null, () -> OptionalInt.of(0), refusing(Sys.EPERM));
        assertTrue(seccomp.missing().orElseThrow().contains("seccomp"), seccomp.toString());

        Capability old = UringProbe.probe(null, OptionalInt::empty, refusing(Sys.ENOSYS));
        assertTrue(old.missing().orElseThrow().contains("kernel without io_uring"), old.toString());
    }

    @Test
    void theDisablePropertyWinsWithoutTouchingTheKernel() {
        Capability c = UringProbe.probe("testing the fallback", () -> OptionalInt.of(0), NEVER);
        assertEquals(Capability.missing("disabled by -Dgar.uring.disable: testing the fallback"), c);

        String before = System.getProperty(UringProbe.DISABLE_PROPERTY);
        System.setProperty(UringProbe.DISABLE_PROPERTY, "simulated refusal");
        try {
            Capability viaProperty = UringProbe.probe();
            assertTrue(viaProperty.missing().orElseThrow().contains("simulated refusal"), viaProperty.toString());
        } finally {
            if (before == null) System.clearProperty(UringProbe.DISABLE_PROPERTY);
            else System.setProperty(UringProbe.DISABLE_PROPERTY, before);
        }
    }

    @Test
    void refusedIoUringResolvesToGpuReactorWithTheCodedWarning() {
        Capability refused = UringProbe.probe(null, () -> OptionalInt.of(2), refusing(Sys.EPERM));
        HostCaps caps = withIoUring(refused);
        Declared.Resolved<ExecutorKind> r = ExecutorKind.resolve(ExecutorKind.IO_URING, Strictness.FALLBACK, caps);
        assertEquals(ExecutorKind.IO_URING, r.requested());
        assertEquals(ExecutorKind.GPU_REACTOR, r.running());
        Warning w = r.warning().orElseThrow();
        assertEquals(ErrorCode.ExecutorFallback, w.code());
        assertEquals("io-uring", w.args().get(0));
        assertTrue(w.args().get(1).contains("EPERM"), w.toString());
        assertEquals("gpu-reactor", w.args().get(2));
        System.out.println("[uring] " + w.message());

        ReactorException strict = assertThrows(ReactorException.class,
                () -> ExecutorKind.resolve(ExecutorKind.IO_URING, Strictness.STRICT, caps));
        assertEquals(ErrorCode.ExecutorRefused, strict.code());
    }

    @Test
    void theDisablePropertyResolvesToGpuReactorToo() {
        HostCaps caps = withIoUring(UringProbe.probe("no rings in this test", OptionalInt::empty, NEVER));
        var r = ExecutorKind.resolve(ExecutorKind.IO_URING, Strictness.FALLBACK, caps);
        assertEquals(ExecutorKind.GPU_REACTOR, r.running());
        assertEquals(ErrorCode.ExecutorFallback, r.warning().orElseThrow().code());
    }

    @Test
    void presentIoUringRunsIoUring() {
        UringTestSupport.requireUring();
        HostCaps caps = UringProbe.hostCaps(HostCaps.everything());
        assertEquals(Capability.present(), caps.ioUring());
        var r = ExecutorKind.resolve(ExecutorKind.IO_URING, Strictness.STRICT, caps);
        assertEquals(ExecutorKind.IO_URING, r.running());
        assertTrue(r.warning().isEmpty());
        assertEquals("io-uring", r.label());
    }

    private static HostCaps withIoUring(Capability ioUring) {
        HostCaps all = HostCaps.everything();
        return new HostCaps(all.parkers(), all.carriers(), all.wordWait(), ioUring);
    }
}
