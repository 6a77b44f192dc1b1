package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default carrier count follows the JDK's own scheduler settings, as the JDK reads them:
 * {@code jdk.virtualThreadScheduler.parallelism}, capped by {@code jdk.virtualThreadScheduler.maxPoolSize};
 * a value that is not a number leaves the default. Under {@code maxPoolSize=1} the pool has one carrier,
 * so a second virtual thread waits while the first computes (the JDK's {@code YieldQueuing} runs so).
 */
class SchedulerPropertiesTest {
    @Test
    void the_default_carriers_follow_the_jdks_parallelism_and_max_pool_size() throws Exception {
        ChildJvm c = ChildJvm.run(SchedulerPropertiesMain.class, 120);
        assertTrue(c.exited(), "the child hung:\n" + c.output());
        assertEquals(0, c.exitValue(), c.output());
        Map<String, String> f = c.facts();
        String cores = f.get("cores");
        assertEquals(cores, f.get("default"), c.output());
        assertEquals("3", f.get("parallelism3"), c.output());
        assertEquals("2", f.get("parallelism3.max2"), c.output());
        assertEquals(cores, f.get("notANumber"), c.output());
        assertEquals("1", f.get("max1.carriers"), c.output());
        assertEquals("false", f.get("max1.secondRanWhileFirstSpun"), c.output());
    }
}
