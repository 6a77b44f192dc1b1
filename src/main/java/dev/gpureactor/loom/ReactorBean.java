package dev.gpureactor.loom;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.Warning;

import java.lang.management.ManagementFactory;
import java.util.function.Consumer;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The reactor's {@link GpuReactorMXBean}, and its registration. A name already taken in the
 * platform MBean server (two reactors built with one name) gets {@code -2}, {@code -3}, … appended,
 * so every reactor gets its own bean; a registration that fails otherwise is a coded
 * {@link ErrorCode#BeanUnavailable} warning and the reactor runs without a bean (observability
 * must never stop a reactor from being built).
 */
final class ReactorBean implements GpuReactorMXBean {
    static final String DOMAIN = "dev.gpureactor";

    private final GpuReactor reactor;
    private final String name;
    /** The name it was registered under, or null when it is not registered. */
    private final ObjectName registered;

    private ReactorBean(GpuReactor reactor, String name, ObjectName registered) {
        this.reactor = reactor;
        this.name = name;
        this.registered = registered;
    }

    /** Registers a bean for {@code reactor} under {@code name} (or the next free suffix); null when it cannot. */
    static ReactorBean register(GpuReactor reactor, String name, Consumer<Warning> warn) {
        return register(ManagementFactory.getPlatformMBeanServer(), reactor, name, warn);
    }

    /** {@link #register(GpuReactor, String, Consumer)} with {@code server} (tests: a server that refuses). */
    static ReactorBean register(MBeanServer server, GpuReactor reactor, String name, Consumer<Warning> warn) {
        for (int n = 1; ; n++) {
            String candidate = n == 1 ? name : name + "-" + n;
            try {
                ObjectName on = objectName(candidate);
                ReactorBean bean = new ReactorBean(reactor, candidate, on);
                server.registerMBean(bean, on);
                return bean;
            } catch (InstanceAlreadyExistsException e) {
                // taken: try the next suffix
            } catch (JMException | RuntimeException e) {
                warn.accept(Warning.of(ErrorCode.BeanUnavailable, "dev.gpureactor:type=GpuReactor,name=" + candidate,
                        e.getClass().getSimpleName() + ": " + e.getMessage()));
                return null;
            }
        }
    }

    /** {@code dev.gpureactor:type=GpuReactor,name=<name>}, the name quoted only where JMX needs it. */
    static ObjectName objectName(String name) throws JMException {
        boolean plain = name.chars().noneMatch(c -> ",=:\"*?\n".indexOf(c) >= 0);
        return new ObjectName(DOMAIN + ":type=GpuReactor,name=" + (plain ? name : ObjectName.quote(name)));
    }

    ObjectName objectName() { return registered; }

    /** Unregisters the bean; idempotent. */
    void unregister() {
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(registered);
        } catch (InstanceNotFoundException e) {
            // already gone
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
    }

    private RunStats stats() { return reactor.stats(); }

    @Override public String getName() { return name; }
    @Override public String getKind() { return reactor.kind().toString(); }
    @Override public String getScheduler() { return reactor.schedulerResolution().running().toString(); }
    @Override public String getPlan() { return reactor.plan().label(); }
    @Override public String getPark() { return reactor.park(); }
    @Override public boolean isClosed() { return reactor.isClosed(); }
    @Override public int getLines() { return reactor.lines(); }
    @Override public int getParkers() { return reactor.liveParkers(); }
    @Override public long getParkersStarted() { return stats().parkersStarted(); }
    @Override public long getParkersDied() { return stats().parkersDied(); }
    @Override public int getCarriers() { return stats().carriers(); }
    @Override public long getQueueDepth() { return stats().queueDepth(); }
    @Override public long getLiveThreads() { return stats().liveThreads(); }
    @Override public long getRegistrations() { return reactor.registrations(); }
    @Override public long getPolls() { return stats().polls(); }
    @Override public long getWoke() { return stats().woke(); }
    @Override public long getSlept() { return stats().slept(); }
    @Override public long getParked() { return stats().parked(); }
    @Override public long getQueried() { return stats().queried(); }
    @Override public long getHosted() { return stats().hosted(); }
    @Override public long getRelieved() { return stats().relieved(); }
    @Override public long getRanWaiting() { return stats().ranWaiting(); }
    @Override public long getCompensations() { return stats().compensations(); }
    @Override public long getIdleNanos() { return stats().idleNanos(); }
    @Override public long getBusyNanos() { return stats().busyNanos(); }
    @Override public double getFilled() { return stats().filled(); }
    @Override public long getParkerCpuNanos() { return stats().parkerCpuNanos(); }
    @Override public long getWarningsRaised() { return reactor.warningsRaised(); }
    @Override public String[] getWarnings() { return reactor.warnings().stream().map(Warning::toString).toArray(String[]::new); }
}
