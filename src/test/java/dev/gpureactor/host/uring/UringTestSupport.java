package dev.gpureactor.host.uring;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpureactor.core.Capability;
import java.util.OptionalInt;
import org.junit.jupiter.api.Assumptions;

/**
 * The one gate of the ring tests. Where /proc/sys/kernel/io_uring_disabled reads 0 (this project's
 * machines), the probe must find io_uring present: a refusal there fails loudly with the reason,
 * unless {@value #ALLOW_REFUSAL} is set. Where it reads 2 the probe must say missing. Otherwise
 * the ring tests are skipped only if the probe says why, and the reason is printed.
 */
final class UringTestSupport {
    private UringTestSupport() {}

    /**
     * {@code -Dgar.uring.test.allowRefusal=true}: a refusal with the sysctl at 0 (a container's
     * seccomp profile) skips the ring tests, with the reason, instead of failing them.
     */
    static final String ALLOW_REFUSAL = "gar.uring.test.allowRefusal";

    private static Capability cached;

    static synchronized Capability probe() {
        if (cached == null) {
            cached = UringProbe.probe(null, UringProbe::readDisabledSysctl, UringProbe::realSetup);
            System.out.println("[uring] probe: " + cached + "; kernel.io_uring_disabled = "
                    + UringProbe.readDisabledSysctl() + "; kernel " + System.getProperty("os.version"));
        }
        return cached;
    }

    /**
     * Fails when the probe disagrees with the sysctl; skips, with the reason, where io_uring is
     * legitimately off (the sysctl reads 2, or no io_uring in the kernel). Why a skip: a ring cannot be
     * set up there, so the ring path has nothing to run on. Where the same behaviour runs: on this
     * project's machines (and CI) the sysctl reads 0, so this fails rather than skips; the refusal
     * path the API promises on such hosts (the coded fallback, the strict refusal) runs everywhere
     * through {@code -Dgar.uring.disable} in {@code UringHostTest}.
     */
    static void requireUring() {
        Capability c = probe();
        OptionalInt disabled = UringProbe.readDisabledSysctl();
        if (disabled.isPresent() && disabled.getAsInt() == 0 && !Boolean.getBoolean(ALLOW_REFUSAL)) {
            assertTrue(c.isPresent(), "kernel.io_uring_disabled reads 0, yet the probe says " + c
                    + " (in a container whose seccomp profile blocks io_uring, run with -D" + ALLOW_REFUSAL + "=true)");
        } else if (disabled.isPresent() && disabled.getAsInt() == 2) {
            assertFalse(c.isPresent(), "kernel.io_uring_disabled reads 2, yet the probe says present");
        }
        if (!c.isPresent()) {
            String why = c.missing().orElseThrow();
            assertFalse(why.isBlank(), "a missing io_uring must say why");
            System.out.println("[uring] skipping: io_uring " + c);
            Assumptions.abort("io_uring " + c + ": no ring can be set up here (on this project's machines the sysctl reads 0, so this"
                    + " fails instead); the refusal path such hosts get runs everywhere in UringHostTest via -Dgar.uring.disable");
        }
    }
}
