package dev.gpureactor.loom;

import dev.gpureactor.backend.sim.SimDevice;
import dev.gpureactor.backend.sim.SimStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No pinning at first use ({@link FirstUse}): in a fresh JVM, the first awaits of a reactor, made by
 * several virtual threads at once, initialise none of the library's classes (and none of the JDK
 * classes and bootstraps the library's await path reaches: OptionalLong, the record ObjectMethods,
 * JFR, and the BigDecimal a timed-out join's text uses) on a carrier thread, where the virtual threads run. A virtual thread that waits on another's
 * class initialisation pins its carrier ("Freeze or preempt failed"); whether that wait happens is a
 * race, so the test checks its cause instead, which is deterministic: the JVM's own class+init log
 * (turned on with {@code VM.log} around the awaits only) names the thread of every initialisation.
 * Lambdas are left out: they link on first execution and are not the reactor's to pre-link.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FirstUseTest {
    static final Pattern INIT = Pattern.compile("Initializing '([^']+)'.* by thread \"([^\"]+)\"");

    @Test
    void the_first_awaits_initialise_no_library_class_on_a_carrier(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("init.log");
        ChildJvm child = ChildJvm.run(FirstAwaits.class, 90, log.toString());
        assertTrue(child.exited() && child.exitValue() == 0, child.output());
        assertEquals("8", child.facts().get("joined"), child.output());
        assertEquals("8", child.facts().get("timedOut"), child.output());
        List<String> onCarriers = new ArrayList<>(), culprits = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            Matcher m = INIT.matcher(line);
            if (!m.find() || !m.group(2).matches("gar-carrier-\\d+")) continue; // carriers, not the pool's gar-carrier-watch
            String cls = m.group(1);
            onCarriers.add(cls);
            boolean library = cls.startsWith("dev/gpureactor/") && !cls.contains("$$Lambda");
            if (library || cls.equals("java/util/OptionalLong") || cls.startsWith("java/lang/runtime/ObjectMethods")
                    || cls.startsWith("jdk/jfr/") || cls.startsWith("java/math/")) {
                culprits.add(cls);
            }
        }
        // The log saw the carriers at work (the JDK's and the lambdas' first use): it can see a culprit.
        assertFalse(onCarriers.isEmpty(), "the class+init log recorded nothing on a carrier:\n" + Files.readString(log));
        assertTrue(culprits.isEmpty(), "initialised on a carrier by a first await: " + culprits);
    }

    /** The child: a reactor built on main, then 8 virtual threads' first awaits at once, then 8 first timed-out joins, logged. */
    public static final class FirstAwaits {
        public static void main(String[] args) throws Exception {
            String plan = "flag:park_us=100,backstop_us=1000+predict:margin_us=100,min_sleep_us=20,max_sleep_us=50000,window=8";
            try (GpuReactor r = GpuReactor.builder().plan(plan).jmx(false).build(); SimDevice dev = SimDevice.open();
                 GpuExecutorService exec = r.newExecutor()) {
                List<SimStream.Signal> signals = new ArrayList<>();
                for (int i = 0; i < 8; i++) signals.add(dev.stream().compute(Duration.ofMillis(5)).signal());
                vmLog("what=class+init=info", "output=" + args[0]);
                List<Future<?>> joins = new ArrayList<>();
                for (SimStream.Signal s : signals) joins.add(exec.submit(() -> r.await(s.descriptor(), s.port()).join()));
                for (Future<?> f : joins) f.get(60, TimeUnit.SECONDS);
                // And the first joins that end by the caller's limit, 8 at once: their coded Timeout and its text.
                List<Future<?>> timeouts = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    SimStream.Signal s = dev.stream().compute(Duration.ofSeconds(30)).signal();
                    Duration limit = i % 2 == 0 ? Duration.ofNanos(-1) : Duration.ofMillis(3);
                    timeouts.add(exec.submit(() -> {
                        try {
                            r.await(s.descriptor(), s.port()).join(limit);
                            return "joined";
                        } catch (dev.gpureactor.core.ReactorException e) {
                            return e.code().name();
                        }
                    }));
                }
                int timedOut = 0;
                for (Future<?> f : timeouts) if ("Timeout".equals(f.get(60, TimeUnit.SECONDS))) timedOut++;
                vmLog("disable");
                System.out.println("timedOut=" + timedOut);
                System.out.println("joined=" + joins.size());
            }
        }

        /** {@code jcmd <pid> VM.log ...}, in process. */
        static void vmLog(String... args) throws Exception {
            ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmLog",
                    new Object[] {args}, new String[] {String[].class.getName()});
        }
    }
}
