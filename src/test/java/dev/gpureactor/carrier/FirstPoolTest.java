package dev.gpureactor.carrier;

import dev.gpureactor.loom.ChildJvm;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link CarrierPool} made before anything else of the library, in a fresh JVM: both constructors
 * run the probe that exports the JDK's carrier class to us before {@code ForkJoinCarriers} loads
 * (loaded first, its carrier class fails for good with an {@code IllegalAccessError}).
 */
class FirstPoolTest {
    @Test
    void a_pool_made_first_thing_in_a_fresh_jvm_runs_its_tasks() throws Exception {
        ChildJvm c = ChildJvm.run(FirstPoolMain.class, 120);
        assertTrue(c.exited(), "the child hung:\n" + c.output());
        assertEquals(0, c.exitValue(), c.output());
        assertEquals("2", c.facts().get("ran"), c.output());
    }
}
