package dev.gpureactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.FieldModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.MemberRefEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.StringEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.lang.reflect.AccessFlag;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layer rules of DESIGN.md, read from the compiled classes' constant pools (every class a class
 * file names, in class entries, member descriptors and generic signatures):
 *
 * <pre>
 * core    -> the JDK's java.* only (no javax, no jdk.*, no sun.*, no other dev.gpureactor package, no library)
 * park    -> core
 * loom    -> core, park
 * backend -> core, park
 * host    -> core, park
 * bench   -> core, park, loom, backend, host, and HdrHistogram
 * cli     -> anything
 * </pre>
 *
 * Outside core, any JDK package but jdk.internal and sun.* is allowed (with the JDK's supported
 * com.sun.net.httpserver and com.sun.management APIs); third-party libraries only in cli, and
 * HdrHistogram in bench. Also: core has no threads (no Thread subclass, no thread start, no executor) and no static
 * mutable state but the documented exceptions.
 */
class ArchitectureTest {
    static final String ROOT = "dev/gpureactor/";
    static final Map<String, Set<String>> MAY_USE = Map.of(
            "core", Set.of(),
            "park", Set.of("core"),
            "loom", Set.of("core", "park"),
            "backend", Set.of("core", "park"),
            "host", Set.of("core", "park"),
            "bench", Set.of("core", "park", "loom", "backend", "host"));
    static final String ANYTHING = "cli";
    /** The third-party libraries a layer other than cli may use, by package prefix. */
    static final Map<String, Set<String>> LIBRARIES = Map.of("bench", Set.of("org/HdrHistogram/"));

    /** Static state in core that is mutable, with why it is allowed. */
    static final Map<String, String> DOCUMENTED_STATICS = Map.of(
            "dev/gpureactor/core/CompletionLine.IDS", "a counter that names lines; it decides nothing");

    record Parsed(String name, ClassModel model, Set<String> references) {
        String layer() { return layerOf(name); }
    }

    static List<Parsed> classes;

    @BeforeAll
    static void readClasses() throws IOException, URISyntaxException {
        Path root = Path.of(ArchitectureTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .getParent().resolve("classes");
        Path dir = root.resolve(ROOT);
        assertTrue(Files.isDirectory(dir), "no compiled classes at " + dir);
        List<Parsed> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                ClassModel m = ClassFile.of().parse(Files.readAllBytes(f));
                out.add(new Parsed(m.thisClass().asInternalName(), m, references(m)));
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        classes = out;
    }

    /** The layer of a dev/gpureactor class: the package segment after dev/gpureactor/, or "" for the root package. */
    static String layerOf(String internalName) {
        String rest = internalName.substring(ROOT.length());
        int slash = rest.indexOf('/');
        return slash < 0 ? "" : rest.substring(0, slash);
    }

    static final Pattern DESCRIPTOR_CLASS = Pattern.compile("L([\\w$]+(?:/[\\w$]+)+)[;<]");

    /** Every class a class file names: class entries, member and method-type descriptors, signatures, annotations. */
    static Set<String> references(ClassModel m) {
        Set<String> refs = new TreeSet<>();
        Set<Utf8Entry> stringConstants = new HashSet<>();
        for (PoolEntry e : m.constantPool()) if (e instanceof StringEntry s) stringConstants.add(s.utf8());
        for (PoolEntry e : m.constantPool()) {
            switch (e) {
                case ClassEntry c -> {
                    String n = c.asInternalName();
                    if (n.startsWith("[")) addDescriptor(refs, n); else refs.add(n);
                }
                case Utf8Entry u when !stringConstants.contains(u) -> addDescriptor(refs, u.stringValue());
                default -> {}
            }
        }
        refs.remove(m.thisClass().asInternalName());
        return refs;
    }

    static void addDescriptor(Set<String> refs, String text) {
        Matcher x = DESCRIPTOR_CLASS.matcher(text);
        while (x.find()) refs.add(x.group(1));
    }

    static boolean isJdk(String n) {
        return n.startsWith("java/") || n.startsWith("javax/") || (n.startsWith("jdk/") && !n.startsWith("jdk/internal/"))
                || n.startsWith("com/sun/net/httpserver/") || n.startsWith("com/sun/management/");
    }

    static String dotted(String internal) { return internal.replace('/', '.'); }

    /** Why {@code from} (in layer {@code layer}) may not name {@code to}, or null if it may. */
    static String violation(String layer, String to) {
        if (layer.equals(ANYTHING)) return null;
        if (to.startsWith(ROOT)) {
            String other = layerOf(to);
            if (other.equals(layer) || MAY_USE.get(layer).contains(other)) return null;
            return "layer " + layer + " may not use layer " + (other.isEmpty() ? "(root package)" : other);
        }
        if (layer.equals("core")) {
            return to.startsWith("java/") ? null : "core uses the JDK's java.* only";
        }
        if (isJdk(to)) return null;
        if (LIBRARIES.getOrDefault(layer, Set.of()).stream().anyMatch(to::startsWith)) return null;
        return "only cli may use a library outside the JDK";
    }

    @Test
    void the_classes_were_read() {
        assertTrue(classes.stream().anyMatch(c -> c.name().equals("dev/gpureactor/core/WaitPlan")),
                "core classes missing from " + classes.stream().map(Parsed::name).toList());
        Parsed waitPlan = classes.stream().filter(c -> c.name().equals("dev/gpureactor/core/Wait")).findFirst().orElseThrow();
        assertTrue(waitPlan.references().contains("dev/gpureactor/core/CompletionPort"), waitPlan.references().toString());
        assertTrue(waitPlan.references().contains("java/util/OptionalLong"), "descriptor-only types are seen too");
    }

    @Test
    void every_class_is_in_a_known_layer() {
        List<String> bad = new ArrayList<>();
        for (Parsed c : classes) {
            if (!MAY_USE.containsKey(c.layer()) && !c.layer().equals(ANYTHING)) {
                bad.add(dotted(c.name()) + " is in no layer (expected dev.gpureactor.{core,park,loom,backend,host,bench,cli}[.sub])");
            }
        }
        if (!bad.isEmpty()) fail(String.join("\n", bad));
    }

    @Test
    void every_layer_uses_only_what_it_may() {
        List<String> bad = new ArrayList<>();
        for (Parsed c : classes) {
            if (!MAY_USE.containsKey(c.layer())) continue; // cli, or reported by every_class_is_in_a_known_layer
            for (String to : c.references()) {
                String why = violation(c.layer(), to);
                if (why != null) bad.add(dotted(c.name()) + " references " + dotted(to) + ": " + why);
            }
        }
        if (!bad.isEmpty()) fail(bad.size() + " layer violation(s):\n" + String.join("\n", bad));
    }

    @Test
    void the_rules_catch_what_they_should() {
        assertEquals(null, violation("core", "java/lang/foreign/MemorySegment"));
        assertTrue(violation("core", "javax/annotation/Nullable") != null);
        assertTrue(violation("core", "jdk/internal/misc/Unsafe") != null);
        assertTrue(violation("core", "sun/misc/Unsafe") != null);
        assertTrue(violation("core", "dev/gpureactor/park/WordWait") != null);
        assertTrue(violation("core", "picocli/CommandLine") != null);
        assertEquals(null, violation("park", "dev/gpureactor/core/Clock"));
        assertTrue(violation("park", "dev/gpureactor/loom/GpuFuture") != null);
        assertTrue(violation("park", "jdk/internal/misc/Unsafe") != null);
        assertEquals(null, violation("loom", "dev/gpureactor/park/WordWait"));
        assertTrue(violation("loom", "dev/gpureactor/backend/sim/SimDevice") != null);
        assertTrue(violation("backend", "dev/gpureactor/host/Uring") != null);
        assertTrue(violation("host", "org/HdrHistogram/Histogram") != null);
        assertEquals(null, violation("bench", "org/HdrHistogram/Histogram"));
        assertEquals(null, violation("bench", "dev/gpureactor/loom/GpuReactor"));
        assertEquals(null, violation("bench", "com/sun/net/httpserver/HttpServer"));
        assertTrue(violation("bench", "dev/gpureactor/cli/Json") != null, "bench sits below cli");
        assertTrue(violation("bench", "picocli/CommandLine") != null);
        assertTrue(violation("core", "com/sun/management/OperatingSystemMXBean") != null);
        assertTrue(violation("loom", "sun/misc/Unsafe") != null);
        assertTrue(violation("host", "dev/gpureactor/loom/GpuFuture") != null);
        assertEquals(null, violation("backend", "dev/gpureactor/backend/cuda/Cuda"), "a layer's sub-packages are the layer");
        assertEquals(null, violation("cli", "picocli/CommandLine"));
        assertEquals(null, violation("cli", "dev/gpureactor/loom/GpuFuture"));
        assertEquals("core", layerOf("dev/gpureactor/core/Slot"));
        assertEquals("backend", layerOf("dev/gpureactor/backend/cuda/CudaPort$1"));
        assertEquals("", layerOf("dev/gpureactor/Loose"));
        Set<String> refs = new TreeSet<>();
        addDescriptor(refs, "(Ljava/util/List<Ldev/gpureactor/core/Slot;>;[Ljava/lang/String;J)Lpicocli/CommandLine$Model;");
        assertEquals(Set.of("java/util/List", "dev/gpureactor/core/Slot", "java/lang/String", "picocli/CommandLine$Model"), refs);
    }

    static List<Parsed> core() {
        return classes.stream().filter(c -> c.layer().equals("core")).toList();
    }

    @Test
    void core_has_no_threads() {
        List<String> bad = new ArrayList<>();
        for (Parsed c : core()) {
            String sup = c.model().superclass().map(ClassEntry::asInternalName).orElse("");
            if (sup.equals("java/lang/Thread")) bad.add(dotted(c.name()) + " extends java.lang.Thread");
            for (PoolEntry e : c.model().constantPool()) {
                if (!(e instanceof MemberRefEntry r)) continue;
                String owner = r.owner().asInternalName();
                String name = r.name().stringValue();
                boolean starts = switch (owner) {
                    case "java/lang/Thread" -> Set.of("start", "<init>", "startVirtualThread", "ofPlatform", "ofVirtual").contains(name);
                    case "java/util/concurrent/Executors", "java/util/concurrent/ForkJoinPool", "java/util/Timer",
                         "java/util/concurrent/ThreadPoolExecutor", "java/util/concurrent/ScheduledThreadPoolExecutor" -> true;
                    case "java/util/concurrent/CompletableFuture" -> name.endsWith("Async");
                    default -> owner.startsWith("java/lang/Thread$Builder") || owner.equals("java/util/concurrent/ThreadFactory");
                };
                if (starts) bad.add(dotted(c.name()) + " references " + dotted(owner) + "." + name + ": the core starts no threads");
            }
        }
        if (!bad.isEmpty()) fail(String.join("\n", bad));
    }

    static final Set<String> MUTABLE_TYPES = Set.of(
            "Ljava/util/concurrent/atomic/", "Ljava/util/ArrayList;", "Ljava/util/LinkedList;", "Ljava/util/HashMap;",
            "Ljava/util/TreeMap;", "Ljava/util/HashSet;", "Ljava/util/TreeSet;", "Ljava/util/ArrayDeque;",
            "Ljava/util/concurrent/Concurrent", "Ljava/util/concurrent/CopyOnWrite", "Ljava/util/concurrent/LinkedBlocking",
            "Ljava/util/List;", "Ljava/util/Map;", "Ljava/util/Set;", "Ljava/util/Collection;", "Ljava/util/Deque;",
            "Ljava/util/Queue;", "Ljava/lang/StringBuilder;", "Ljava/util/Random;");

    @Test
    void core_has_no_static_mutable_state_but_the_documented() {
        List<String> bad = new ArrayList<>();
        Map<String, String> seen = new TreeMap<>();
        for (Parsed c : core()) {
            for (FieldModel f : c.model().fields()) {
                if (!f.flags().has(AccessFlag.STATIC)) continue;
                String id = c.name() + "." + f.fieldName().stringValue();
                String type = f.fieldType().stringValue();
                String why = null;
                if (!f.flags().has(AccessFlag.FINAL)) why = "a static field that is not final";
                else if (MUTABLE_TYPES.stream().anyMatch(type::startsWith)) why = "a static final field of a mutable type " + type;
                if (why == null) continue;
                if (DOCUMENTED_STATICS.containsKey(id)) {
                    seen.put(id, why);
                } else {
                    bad.add(dotted(c.name()) + "." + f.fieldName().stringValue() + ": " + why
                            + " (the core keeps no static state; document it in ArchitectureTest.DOCUMENTED_STATICS if it must)");
                }
            }
        }
        if (!bad.isEmpty()) fail(String.join("\n", bad));
        assertEquals(DOCUMENTED_STATICS.keySet(), seen.keySet(), "a documented static that is gone should leave the list");
    }

    @Test
    void core_methods_are_not_synchronized_on_a_static() {
        // A static synchronized method locks the Class: shared state across every instance.
        List<String> bad = new ArrayList<>();
        for (Parsed c : core()) {
            for (MethodModel mm : c.model().methods()) {
                if (mm.flags().has(AccessFlag.STATIC) && mm.flags().has(AccessFlag.SYNCHRONIZED)) {
                    bad.add(dotted(c.name()) + "." + mm.methodName().stringValue() + " is static synchronized");
                }
            }
        }
        if (!bad.isEmpty()) fail(String.join("\n", bad));
    }
}
