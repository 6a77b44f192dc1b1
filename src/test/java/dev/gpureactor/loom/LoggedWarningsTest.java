package dev.gpureactor.loom;

import dev.gpureactor.core.Capability;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The reactor's default warnings sink: {@code System.Logger("dev.gpureactor")}, each code once per
 * reactor; the builder's sink replaces it. The child-JVM form (a plain run without flags, stderr
 * through the JDK's default backend) is {@link PlainRunTest}.
 */
class LoggedWarningsTest {
    @Test
    void each_code_is_logged_the_first_time_a_reactor_raises_it_and_never_again() {
        Recorder log = new Recorder();
        LoggedWarnings sink = new LoggedWarnings("r1", log, false);
        Warning a = Warning.of(ErrorCode.ExecutorFallback, "carrier-pool", "why", "jdk-default");
        Warning b = Warning.of(ErrorCode.ExecutorFallback, "deadline sleeps on line-1", "why 2", "parkNanos");
        Warning c = Warning.of(ErrorCode.LiveAtClose, "reactor r1", 3, "gar-vt-1");
        sink.accept(a);
        sink.accept(b);
        sink.accept(c);
        sink.accept(a);
        assertEquals(2, log.lines.size(), log.lines::toString);
        assertEquals("WARNING GpuReactor r1: " + a.message()
                + " (logged once per reactor; later ones only in GpuReactor.warnings() and its MXBean)", log.lines.get(0));
        assertTrue(log.lines.get(1).startsWith("WARNING GpuReactor r1: GAR-"), log.lines::toString);
        assertTrue(log.lines.get(1).contains(c.message()), log.lines::toString);
    }

    @Test
    void the_pure_java_park_is_info_only_where_enabling_native_access_would_turn_the_hardware_park_on() {
        Warning park = Warning.of(ErrorCode.ParkFallback, "flag", "a hardware word wait", "CPU lacks waitpkg", "the pure-Java park");
        Recorder granted = new Recorder(), denied = new Recorder();
        new LoggedWarnings("r", granted, false).accept(park); // native access on, or a CPU whose flags lack a word wait
        new LoggedWarnings("r", denied, true).accept(park);   // off, on a CPU that advertises one
        assertEquals(List.of("DEBUG GpuReactor r: " + park.message()
                + " (logged once per reactor; later ones only in GpuReactor.warnings() and its MXBean)"), granted.lines);
        assertEquals(1, denied.lines.size());
        assertTrue(denied.lines.getFirst().startsWith("INFO "), denied.lines::toString);
    }

    @Test
    void a_level_the_logger_does_not_take_is_not_formatted_nor_logged() {
        Recorder quiet = new Recorder();
        quiet.minimum = System.Logger.Level.INFO;
        new LoggedWarnings("r", quiet, false).accept(Warning.of(ErrorCode.ParkFallback, "a", "b", "c", "d"));
        assertEquals(List.of(), quiet.lines);
    }

    @Test
    void by_default_a_reactor_logs_its_fallback_once_through_the_dev_gpureactor_logger_and_each_reactor_its_own() {
        try (JulRecords log = new JulRecords(null)) {
            // No scheduler hook: the reactor falls back to the JDK's scheduler with ExecutorFallback.
            try (GpuReactor one = GpuReactor.builder().name("logged-one").caps(noHook()).jmx(false).build();
                 GpuReactor two = GpuReactor.builder().name("logged-two").caps(noHook()).jmx(false).build()) {
                assertTrue(one.warnings().stream().anyMatch(w -> w.code() == ErrorCode.ExecutorFallback), one.warnings()::toString);
                List<String> fallbacks = log.records().stream().filter(r -> r.getMessage().contains("GAR-0003 ExecutorFallback"))
                        .map(r -> r.getLevel() + " " + r.getMessage()).toList();
                assertEquals(2, fallbacks.size(), fallbacks::toString);
                assertTrue(fallbacks.get(0).startsWith("WARNING GpuReactor logged-one: GAR-0003 ExecutorFallback: "), fallbacks::toString);
                assertTrue(fallbacks.get(1).startsWith("WARNING GpuReactor logged-two: GAR-0003 ExecutorFallback: "), fallbacks::toString);
                assertTrue(fallbacks.get(0).contains("test: no hook"), fallbacks::toString);
            }
        }
    }

    @Test
    void a_sink_given_to_the_builder_replaces_the_log() {
        try (JulRecords log = new JulRecords(Level.ALL)) { // DEBUG records too: the given sink must take every one
            List<Warning> mine = new ArrayList<>();
            try (GpuReactor r = GpuReactor.builder().caps(noHook()).jmx(false).warnings(mine::add).build()) {
                assertTrue(mine.stream().anyMatch(w -> w.code() == ErrorCode.ExecutorFallback), mine::toString);
                assertEquals(r.warnings(), mine);
            }
            assertEquals(List.of(), log.records().stream().map(LogRecord::getMessage).toList());
        }
    }

    /** A host without the scheduler hook: a reactor built on it falls back, with ExecutorFallback. */
    private static HostCaps noHook() {
        return new HostCaps(Capability.present(), Capability.missing("test: no hook"),
                Capability.missing("test: no word wait"), Capability.missing("test: no io_uring"));
    }

    /**
     * The records of the {@code dev.gpureactor} logger while open: a handler added (and the logger's
     * level set, unless null) at the start; at close the handler removed and the level put back.
     */
    private static final class JulRecords extends Handler implements AutoCloseable {
        private final Logger jul = Logger.getLogger(LoggedWarnings.LOGGER);
        private final Level before = jul.getLevel();
        private final List<LogRecord> records = new ArrayList<>();

        JulRecords(Level level) {
            jul.addHandler(this);
            if (level != null) jul.setLevel(level);
        }

        synchronized List<LogRecord> records() { return List.copyOf(records); }

        @Override public synchronized void publish(LogRecord r) { records.add(r); }
        @Override public void flush() {}

        @Override
        public void close() {
            jul.setLevel(before);
            jul.removeHandler(this);
        }
    }

    /** A System.Logger that keeps "LEVEL message" lines at or above {@link #minimum}. */
    private static final class Recorder implements System.Logger {
        final List<String> lines = new ArrayList<>();
        System.Logger.Level minimum = System.Logger.Level.ALL;

        @Override public String getName() { return "test"; }
        @Override public boolean isLoggable(System.Logger.Level level) { return level.getSeverity() >= minimum.getSeverity(); }
        @Override public void log(System.Logger.Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            if (isLoggable(level)) lines.add(level + " " + msg);
        }
        @Override public void log(System.Logger.Level level, ResourceBundle bundle, String format, Object... params) {
            if (isLoggable(level)) lines.add(level + " " + format + (params == null || params.length == 0 ? "" : " " + List.of(params)));
        }
        @Override public void log(System.Logger.Level level, Supplier<String> msgSupplier) {
            if (isLoggable(level)) lines.add(level + " " + msgSupplier.get());
        }
    }
}
