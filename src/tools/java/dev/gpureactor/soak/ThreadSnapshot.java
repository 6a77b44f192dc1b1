package dev.gpureactor.soak;

import dev.gpureactor.json.Json;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where every thread stands, virtual threads included, cut down to what tells a stalled carrier
 * pool: each mounted virtual thread with the thread it is mounted on (a carrier, or a parker
 * hosting it) and its frames; the unmounted ones grouped by state and top frames, largest groups
 * first; and the JDK threads that resume virtual threads ({@code VirtualThread-unblocker},
 * {@code VirtualThread-unparker}).
 *
 * <p>Why the JVM's own dump ({@code HotSpotDiagnosticMXBean.dumpThreads}, JSON, asked through the
 * platform MBean server so that only {@code javax.management} is named, read back with
 * {@link Json#read}): {@code Thread.getAllStackTraces()} names no virtual thread, and a carrier's
 * own stack ends at {@code Continuation.run}, so neither says which virtual thread holds a carrier
 * or where it stands (pinned in a class initializer, parked on a lock, spinning). The dump says it
 * with its {@code carrier} field. Taken once, at the first lost or hung wait; where the JVM has no
 * {@code jdk.management} module, one line says so.
 */
final class ThreadSnapshot {
    private ThreadSnapshot() {}

    /**
     * The snapshot as report lines: mounted virtual threads with up to {@code frames} frames each,
     * then at most {@code groups} groups of unmounted ones (their top frames, at most four), then
     * the JDK's resuming threads.
     */
    static List<String> lines(int frames, int groups) {
        List<Map<String, Object>> threads;
        try {
            threads = dump();
        } catch (Exception | LinkageError e) { // no jdk.management (no such MBean), or the dump failed: the report goes on
            return List.of("virtual threads: no thread dump (" + e + ")");
        }
        Map<String, String> names = new HashMap<>();
        for (Map<String, Object> t : threads) names.put(text(t.get("tid")), text(t.get("name")));
        List<String> mounted = new ArrayList<>(), resumers = new ArrayList<>();
        Map<String, Integer> unmounted = new LinkedHashMap<>();
        for (Map<String, Object> t : threads) {
            String name = text(t.get("name"));
            if (Boolean.TRUE.equals(t.get("virtual"))) {
                Object carrier = t.get("carrier");
                if (carrier != null) {
                    String on = names.getOrDefault(text(carrier), "#" + text(carrier));
                    mounted.add("virtual " + label(t) + " mounted on " + on + ": " + state(t) + frames(t, frames));
                } else {
                    unmounted.merge(state(t) + frames(t, Math.min(4, frames)), 1, Integer::sum);
                }
            } else if (name.startsWith("VirtualThread-unblocker") || name.startsWith("VirtualThread-unparker")) {
                resumers.add(label(t) + ": " + state(t) + frames(t, Math.min(4, frames)));
            }
        }
        List<String> out = new ArrayList<>(mounted);
        unmounted.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(groups)
                .forEach(e -> out.add(e.getValue() + " unmounted virtual thread" + (e.getValue() == 1 ? "" : "s") + " " + e.getKey()));
        if (unmounted.size() > groups) out.add("(" + (unmounted.size() - groups) + " smaller groups of unmounted virtual threads left out)");
        out.addAll(resumers);
        return out;
    }

    /** Every thread of the JVM's dump, from every thread container. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> dump() throws Exception {
        Path dir = Files.createTempDirectory("gar-threads-");
        Path file = dir.resolve("threads.json"); // dumpThreads refuses a file that exists
        try {
            // The MXBean's enum parameter is a String on the MBean server: "JSON" is ThreadDumpFormat.JSON.
            ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=HotSpotDiagnostic"),
                    "dumpThreads", new Object[] {file.toString(), "JSON"}, new String[] {String.class.getName(), String.class.getName()});
            Map<String, Object> root = (Map<String, Object>) Json.read(Files.readString(file));
            Map<String, Object> dump = (Map<String, Object>) root.get("threadDump");
            List<Map<String, Object>> threads = new ArrayList<>();
            for (Object c : (List<Object>) dump.get("threadContainers")) {
                for (Object t : (List<Object>) ((Map<String, Object>) c).get("threads")) threads.add((Map<String, Object>) t);
            }
            return threads;
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    private static String label(Map<String, Object> t) { return text(t.get("name")) + " #" + text(t.get("tid")); }

    /** The state and, where the dump has it, what the thread is blocked on, waiting on or parked for. */
    private static String state(Map<String, Object> t) {
        StringBuilder b = new StringBuilder(text(t.get("state")));
        for (String k : List.of("blockedOn", "waitingOn", "parkBlocker")) {
            Object v = t.get(k);
            if (v != null) b.append(' ').append(k).append(' ').append(v);
        }
        return b.toString();
    }

    private static String frames(Map<String, Object> t, int max) {
        Object s = t.get("stack");
        if (!(s instanceof List<?> l) || l.isEmpty()) return "";
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(max, l.size()); i++) b.append(i == 0 ? " at " : " <- ").append(l.get(i));
        return b.toString();
    }

    private static String text(Object o) { return o == null ? "" : o.toString(); }
}
