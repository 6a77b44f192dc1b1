package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JDK's I/O pollers never run on a reactor's carriers. The JDK starts them at the first socket read a virtual
 * thread parks in, as virtual threads that take the scheduler of the thread that was first; when that was a reactor
 * thread they ran on its pool, and once the reactor closed every virtual thread's socket read in the JVM hung (an
 * outside probe: 5 of 5, the JDK's own threads included). The library starts the JDK's pollers before its first pool.
 * In a fresh JVM (a child), the first parked socket read is a reactor thread's: after the reactor's close its carriers
 * leave (a poller on them would keep them for good) and a JDK virtual thread's read completes.
 */
class JdkPollersTest {
    @Test
    void the_jdk_s_pollers_stay_off_the_reactor_s_carriers() throws Exception {
        ChildJvm c = ChildJvm.run(JdkPollersMain.class, 120, List.of());
        assertTrue(c.exited(), "the child hung:\n" + c.output());
        assertEquals(0, c.exitValue(), c.output());
        assertEquals("ok", c.facts().get("reactor.read"), c.output());
        assertEquals("true", c.facts().get("retired"), "the closed reactor's carriers left: " + c.output());
        assertEquals("ok", c.facts().get("jdk.read"), "a JDK virtual thread's read after the close: " + c.output());
        assertTrue(c.output().contains("done"), c.output());
    }
}
