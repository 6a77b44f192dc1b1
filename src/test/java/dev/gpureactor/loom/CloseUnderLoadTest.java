package dev.gpureactor.loom;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Closing the reactor under a loaded HTTP server, in a child JVM running
 * {@link CloseUnderLoadMain}: every request the server took is answered, with its value or a
 * coded {@code ShutDown}; none hangs and none is wrong; {@code HttpServer.stop()} returns; the
 * JDK's unblocker, unparker and poller threads are alive; the carriers leave; the JVM exits by
 * itself. Bounds are hang guards only.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CloseUnderLoadTest {
    @Test
    void closing_the_reactor_under_load_answers_every_request_and_the_jvm_exits() throws Exception {
        ChildJvm child = ChildJvm.run(CloseUnderLoadMain.class, 240);
        String output = child.output();
        Map<String, String> facts = child.facts();
        assertTrue(child.exited(), "the child JVM did not exit by itself:\n" + output);
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("\ndone"), output);
        assertTrue(Long.parseLong(facts.get("values")) > 0, "the load ran: " + output);
        assertEquals("0", facts.get("wrong"), output);
        assertEquals("0", facts.get("hung"), "every request was answered or refused, none hangs: " + output);
        assertEquals("0", facts.get("lostBeforeClose"), output);
        assertEquals("0", facts.get("handlersUnfinished"), "every handler that started answered: " + output);
        assertEquals("true", facts.get("clientsEnded"), output);
        assertEquals("true", facts.get("stopReturned"), "HttpServer.stop() returned: " + output);
        assertEquals("true", facts.get("carriersLeft"), output);
        assertEquals("0", facts.get("liveThreads"), output);
        assertEquals("alive", facts.get("jdk.VirtualThread-unparker"), "handlers sleep, so the unparker ran and lives: " + output);
        assertTrue(Integer.parseInt(facts.get("jdkThreads")) >= 1, output);
        facts.forEach((k, v) -> {
            if (k.startsWith("jdk.")) assertEquals("alive", v, k + " died: " + output);
        });
        assertFalse(output.contains("RejectedExecutionException"), "no thread saw our rejection: " + output);
    }
}
