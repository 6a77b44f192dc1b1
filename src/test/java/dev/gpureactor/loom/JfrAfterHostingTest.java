package dev.gpureactor.loom;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The minimal form of "JFR events lost after hosting" (docs/JFR.md): a platform thread runs a virtual
 * thread's continuation through the library's pool route, as a hosting parker does, then commits JFR
 * events of its own ({@link JfrAfterHostingMain}).
 *
 * <p>The cause is JDK-8391824: JFR keeps one Java event writer per OS thread, tagged with the id of the
 * thread it writes for. A virtual thread that commits an event retags its carrier's writer; the carrier's
 * next {@code JVM.getEventWriter()} retags it back, and that call's slow path (interpreted or C1 callers;
 * C2's intrinsic is right) looks up the {@code pinVirtualThread} field under the name {@code valid}, so it
 * stores "is virtual" into {@code valid}: false for a platform thread. {@code EventWriter.endEvent} then
 * discards that one event (not valid: reset, valid again, return true, no retry); later ones are kept.
 *
 * <p>The child runs with {@code -Xint} so that every commit takes the slow path, as a parker's rare
 * events do (their commits never get hot enough for C2): the result is then deterministic.
 */
class JfrAfterHostingTest {
    @Test
    void a_thread_that_ran_a_guest_which_committed_nothing_records_every_event() throws Exception {
        ChildJvm child = child();
        assertEquals("1@host,2@host,3@host", child.facts().get("silent"), child::output);
    }

    /**
     * The JDK 25 loss, asserted exactly: the guest's event and every commit of the host after the first
     * are recorded; the host's first commit after the guest's is not. On a JDK with JDK-8391824 fixed
     * this fails: then the parker's events are reliable after hosting, docs/JFR.md's "Known" section
     * goes, and JfrEventsTest can require the parker's events with the wait event on too.
     */
    @Test
    void after_a_guest_committed_an_event_the_hosts_next_commit_is_lost_and_the_later_ones_kept() throws Exception {
        ChildJvm child = child();
        assertEquals("100@,2@host,3@host", child.facts().get("committing"),
                () -> "JDK-8391824 drops the host's first event after its guest's; fixed in " + Runtime.version()
                        + "? then update docs/JFR.md\n" + child.output());
    }

    /**
     * The cause pinned: the same run with every method compiled by C2 up front ({@code -Xcomp}, no tiers),
     * whose {@code JVM.getEventWriter()} intrinsic retags the writer correctly, loses nothing.
     */
    @Test
    void with_every_commit_compiled_by_c2_the_hosts_events_are_all_kept() throws Exception {
        ChildJvm c2 = ChildJvm.run(JfrAfterHostingMain.class, 300, List.of("-Xcomp", "-XX:-TieredCompilation"));
        assertTrue(c2.exited() && c2.exitValue() == 0, c2::output);
        assertEquals("100@,1@host,2@host,3@host", c2.facts().get("committing"), c2::output);
    }

    /** One child JVM under {@code -Xint} serves the first two tests (it records both guests); made on first use. */
    private static ChildJvm child;

    private static synchronized ChildJvm child() throws Exception {
        if (child == null) child = ChildJvm.run(JfrAfterHostingMain.class, 120, List.of("-Xint"));
        ChildJvm c = child;
        assertTrue(c.exited() && c.exitValue() == 0, c::output);
        return c;
    }
}
