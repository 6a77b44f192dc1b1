package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import org.junit.jupiter.api.Test;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The reactor's MXBean through the platform MBean server: registered at build, read, gone at close. */
class ReactorMXBeanTest {
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Test
    void a_reactor_is_registered_at_build_readable_and_unregistered_on_close() throws Exception {
        ObjectName on = new ObjectName("dev.gpureactor:type=GpuReactor,name=mx-test");
        GpuReactor r = GpuReactor.builder().name("mx-test").carriers(2).build();
        try (SimDevice dev = SimDevice.open()) {
            assertEquals(on, r.jmxName().orElseThrow());
            assertTrue(server.isRegistered(on));
            SimStream s = dev.stream();
            java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
            s.hold(gate); // the wait stays registered with its line's parker until the gate opens
            SimStream.Signal sig = s.signal();
            GpuFuture<Integer> f = r.await(sig.descriptor(), sig.port(), () -> 1);
            assertEquals(1L, server.getAttribute(on, "Registrations"));
            assertEquals(1, server.getAttribute(on, "Lines"), "one line has a parker");
            assertEquals(1, server.getAttribute(on, "Parkers"));
            var joined = r.newExecutor().submit(() -> f.join());
            gate.countDown();
            assertEquals(1, joined.get(60, TimeUnit.SECONDS));

            // Through the server, as jconsole reads it: the open-type attributes, then a typed proxy.
            assertEquals("mx-test", server.getAttribute(on, "Name"));
            assertEquals(2, server.getAttribute(on, "Carriers"));
            assertEquals(r.plan().label(), server.getAttribute(on, "Plan"));
            assertTrue((Long) server.getAttribute(on, "Woke") >= 1, "the parker woke the wait");
            // A carrier counts a task run when its run segment returns, after the joining task set its
            // result: join() can return first (the wait was done before the joiner parked), so wait for it.
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a hang guard, not a timing
            while ((Long) server.getAttribute(on, "Polls") < 1 && System.nanoTime() < end) Thread.sleep(1);
            assertTrue((Long) server.getAttribute(on, "Polls") >= 1, "the joining task ran on a carrier");
            assertEquals(r.warningsRaised(), server.getAttribute(on, "WarningsRaised"));
            assertEquals((int) r.warningsRaised(), ((String[]) server.getAttribute(on, "Warnings")).length);
            GpuReactorMXBean proxy = JMX.newMXBeanProxy(server, on, GpuReactorMXBean.class);
            assertEquals(1, proxy.getLines());
            assertEquals(1, proxy.getParkersStarted());
            assertFalse(proxy.isClosed());
            assertTrue(proxy.getQueueDepth() >= 0);
            assertTrue(proxy.getLiveThreads() >= 0);
        } finally {
            r.close();
        }
        assertFalse(server.isRegistered(on), "unregistered on close");
        assertTrue(r.jmxName().isEmpty());
    }

    @Test
    void two_reactors_get_two_names_and_jmx_false_registers_none() throws Exception {
        try (GpuReactor a = GpuReactor.builder().name("twin").build();
             GpuReactor b = GpuReactor.builder().name("twin").build();
             GpuReactor c = GpuReactor.builder().jmx(false).build()) {
            ObjectName na = a.jmxName().orElseThrow(), nb = b.jmxName().orElseThrow();
            assertNotEquals(na, nb);
            assertEquals("twin", na.getKeyProperty("name"));
            assertEquals("twin-2", nb.getKeyProperty("name"));
            assertTrue(server.isRegistered(na) && server.isRegistered(nb));
            assertTrue(c.jmxName().isEmpty());
            assertTrue(server.queryNames(new ObjectName("dev.gpureactor:type=GpuReactor,name=" + c.name()), null).isEmpty());
        }
        assertTrue(server.queryNames(new ObjectName("dev.gpureactor:type=GpuReactor,name=twin*"), null).isEmpty());
    }

    @Test
    void a_server_that_refuses_the_bean_is_a_coded_BeanUnavailable_warning_and_the_reactor_runs() throws Exception {
        // A server whose policy refuses our domain, as a security manager or a custom MBeanServerBuilder may.
        MBeanServer refusing = (MBeanServer) java.lang.reflect.Proxy.newProxyInstance(MBeanServer.class.getClassLoader(),
                new Class<?>[] {MBeanServer.class}, (proxy, m, args) -> {
                    if (m.getName().equals("registerMBean")) throw new SecurityException("no beans in dev.gpureactor");
                    throw new UnsupportedOperationException(m.getName());
                });
        java.util.List<dev.gpureactor.core.Warning> warned = new java.util.ArrayList<>();
        try (GpuReactor r = GpuReactor.builder().jmx(false).build()) {
            assertNull(ReactorBean.register(refusing, r, "refused", warned::add));
            assertEquals(1, warned.size(), warned.toString());
            dev.gpureactor.core.Warning w = warned.getFirst();
            assertEquals(dev.gpureactor.core.ErrorCode.BeanUnavailable, w.code(), "not a scheduler fallback: " + w);
            assertTrue(w.toString().contains("name=refused") && w.toString().contains("no beans in dev.gpureactor"), w.toString());
        }
    }
}
