package dev.gpureactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.FieldModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.ModuleAttribute;
import java.lang.classfile.attribute.ModuleExportInfo;
import java.lang.classfile.attribute.ModuleRequireInfo;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.MemberRefEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.StringEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.lang.reflect.AccessFlag;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
 * The layer rules of docs/DESIGN.md, read from the compiled classes' constant pools (every class a class
 * file names, in class entries, member descriptors and generic signatures). Every package is a layer of
 * its own, a sub-package included (its {@code package-info} states the same rule):
 *
 * <pre>
 * core                      -> the JDK's java.* only (no javax, no jdk.*, no sun.*, no other package, no library)
 * loader                    -> core                       (the native loader, not exported)
 * park                      -> core, loader
 * carrier                   -> core                       (the carrier pool, not exported)
 * parker                    -> core, park, carrier        (the parkers and their waits, not exported)
 * loom                      -> core, loader, park, parker, carrier (the reactor, the future, the executor)
 * backend                   -> core, loader               (never its sub-packages)
 * backend.{sim,cuda,hip,metal} -> backend, core, loader   (never a sibling; cuda and hip their own ffi and raw)
 * backend.{cuda,hip}.raw    -> backend, their own ffi     (the raw driver calls, not exported)
 * park.ffi, backend.{cuda,hip}.ffi -> the JDK only         (jextract's generated bindings)
 * host                      -> core, park                 (never its sub-package)
 * host.uring                -> host, core, park, loom   (UringHost composes the ring with a reactor builder)
 * json                      -> the JDK's java.* only
 * bench, soak, demo        -> the library's packages, json (never cli); bench also bench.service
 * bench.gpu, bench.service  -> the library's packages, json (measurement engines; never cli)
 * bench.scale              -> the library's packages, json, bench, bench.service (never cli)
 * cli                       -> anything
 * </pre>
 *
 * Outside core and json, any JDK package but jdk.internal and sun.* is allowed; third-party libraries
 * only in cli and bench (picocli, HdrHistogram: the tools' dependencies). No package cycle anywhere,
 * cli included ({@link #no_package_cycles}). The library's packages build from src/main into
 * target/classes (the library jar), the tools' (json, bench, soak, demo, cli) from src/tools into
 * target/tools-classes, and the library's module descriptor carries nothing for the tools. Also: core
 * has no threads (no Thread subclass, no thread start, no executor) and no static mutable state but the
 * documented exceptions; every package has a package-info.
 */
class ArchitectureTest {
    static final String ROOT = "dev/gpureactor/";
    /** The library's own packages: what an engine driven by the command line may use. */
    static final Set<String> LIBRARY = Set.of("core", "loader", "park", "carrier", "parker", "loom", "backend", "backend/sim", "backend/cuda",
            "backend/cuda/raw", "backend/hip", "backend/hip/raw", "backend/metal", "host", "host/uring");
    static final Set<String> BACKEND_SUB = Set.of("backend", "core", "loader");
    static final Set<String> ENGINE = union(LIBRARY, Set.of("json"));
    /** Each package (its path below dev/gpureactor/) and the other packages it may use. */
    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            Map.entry("core", Set.of()),
            Map.entry("loader", Set.of("core")),
            Map.entry("park", Set.of("core", "loader", "park/ffi")),
            // jextract's generated bindings: descriptors and address-taking invokes over java.lang.foreign.
            Map.entry("park/ffi", Set.of()),
            Map.entry("backend/cuda/ffi", Set.of()),
            Map.entry("backend/hip/ffi", Set.of()),
            Map.entry("carrier", Set.of("core")),
            Map.entry("parker", Set.of("core", "park", "carrier")),
            Map.entry("loom", Set.of("core", "loader", "park", "parker", "carrier")),
            Map.entry("backend", Set.of("core", "loader")),
            Map.entry("backend/sim", BACKEND_SUB),
            // the raw driver calls (not exported) over the generated bindings, at the binding's addresses
            Map.entry("backend/cuda/raw", Set.of("backend", "backend/cuda/ffi")),
            Map.entry("backend/hip/raw", Set.of("backend", "backend/hip/ffi")),
            Map.entry("backend/cuda", union(BACKEND_SUB, Set.of("backend/cuda/ffi", "backend/cuda/raw"))),
            Map.entry("backend/hip", union(BACKEND_SUB, Set.of("backend/hip/ffi", "backend/hip/raw"))),
            Map.entry("backend/metal", BACKEND_SUB),
            Map.entry("host", Set.of("core", "park")),
            Map.entry("host/uring", Set.of("host", "core", "park", "loom")),
            Map.entry("json", Set.of()),
            // gar bench shares bench.service's ThreadCpu and plot helpers (bench.service never uses bench).
            Map.entry("bench", union(ENGINE, Set.of("bench/service"))),
            Map.entry("soak", ENGINE),
            Map.entry("bench/gpu", ENGINE),
            Map.entry("bench/blocking", ENGINE),
            Map.entry("bench/service", ENGINE),
            // the scale benchmark's engine: reuses bench's Goal and many-futures phase, bench.service's ThreadCpu.
            Map.entry("bench/scale", union(ENGINE, Set.of("bench", "bench/service"))),
            Map.entry("demo", ENGINE));
    static final String ANYTHING = "cli";
    /** The tools' packages, their sub-packages included: src/tools, the tools artifact and gar.jar; never the library jar. */
    static final Set<String> TOOLS = Set.of("json", "bench", "soak", "demo", ANYTHING);

    static boolean isTool(String layer) {
        return TOOLS.contains(layer.contains("/") ? layer.substring(0, layer.indexOf('/')) : layer);
    }
    /** Packages that use the JDK's java.* alone. */
    static final Set<String> JAVA_ONLY = Set.of("core", "json");
    /**
     * The JDK internals a layer may name: the carriers are the JDK's own carrier class, so that the
     * JDK compensates their blocking calls (carrier.CarrierThreads exports it to the library at run time);
     * and the JDK's carrier-thread local, through which a thread's first run tells the platform thread
     * running it that the factory made it (carrier.AdoptedThreads).
     */
    static final Map<String, Set<String>> MAY_USE_JDK_INTERNAL = Map.of("carrier",
            Set.of("jdk/internal/misc/CarrierThread", "jdk/internal/misc/CarrierThreadLocal"));
    /** Packages that may use a library outside the JDK (the optional dependencies). */
    static final Set<String> MAY_USE_LIBRARIES = Set.of("cli", "bench", "bench/service", "bench/scale");

    /**
     * Package cycles that cannot be broken yet, each with why (a set of packages, as paths below
     * dev/gpureactor/). Empty: a cycle fails the build; a listed cycle that is gone fails too.
     */
    static final Map<Set<String>, String> ALLOWED_CYCLES = Map.of();

    static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> u = new TreeSet<>(a);
        u.addAll(b);
        return Set.copyOf(u);
    }

    /** Static state in core that is mutable, with why it is allowed. */
    static final Map<String, String> DOCUMENTED_STATICS = Map.of(
            "dev/gpureactor/core/CompletionLine.IDS", "a counter that names lines; it decides nothing");

    /** A class file, {@code tools} when it came from target/tools-classes (src/tools) rather than target/classes. */
    record Parsed(String name, ClassModel model, Set<String> references, boolean tools) {
        String layer() { return layerOf(name); }
    }

    static List<Parsed> classes;
    static Path classesRoot;

    @BeforeAll
    static void readClasses() throws IOException, URISyntaxException {
        Path target = Path.of(ArchitectureTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .getParent();
        List<Parsed> out = new ArrayList<>();
        read(target.resolve("classes"), false, out);
        read(target.resolve("tools-classes"), true, out);
        classes = out;
        classesRoot = target.resolve("classes");
    }

    static void read(Path root, boolean tools, List<Parsed> out) throws IOException {
        Path dir = root.resolve(ROOT);
        assertTrue(Files.isDirectory(dir), "no compiled classes at " + dir);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                ClassModel m = ClassFile.of().parse(Files.readAllBytes(f));
                out.add(new Parsed(m.thisClass().asInternalName(), m, references(m), tools));
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The layer of a dev/gpureactor class: its package's path below dev/gpureactor/ ("backend/cuda"), or "" for the root package. */
    static String layerOf(String internalName) {
        String rest = internalName.substring(ROOT.length());
        int slash = rest.lastIndexOf('/');
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
        return n.startsWith("java/") || n.startsWith("javax/") || (n.startsWith("jdk/") && !n.startsWith("jdk/internal/"));
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
        if (JAVA_ONLY.contains(layer)) {
            return to.startsWith("java/") ? null : layer + " uses the JDK's java.* only";
        }
        if (isJdk(to) || MAY_USE_LIBRARIES.contains(layer)) return null;
        if (MAY_USE_JDK_INTERNAL.getOrDefault(layer, Set.of()).contains(to)) return null;
        return "only " + MAY_USE_LIBRARIES + " may use a library outside the JDK";
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
    void src_main_holds_the_library_and_src_tools_the_tools() {
        List<String> bad = new ArrayList<>();
        for (Parsed c : classes) {
            if (c.tools() != isTool(c.layer())) {
                bad.add(dotted(c.name()) + (c.tools()
                        ? " is in src/tools but not a tools package " + TOOLS + ": library code goes to src/main"
                        : " is in src/main (the library jar) but in the tools package " + c.layer() + ": it goes to src/tools"));
            }
        }
        assertTrue(classes.stream().anyMatch(c -> c.tools() && c.layer().equals(ANYTHING)), "the tools' classes were read");
        assertTrue(isTool("bench/gpu") && !isTool("backend/cuda") && !isTool("core"));
        if (!bad.isEmpty()) fail(String.join("\n", bad));
    }

    @Test
    void every_class_is_in_a_known_layer() {
        List<String> bad = new ArrayList<>();
        for (Parsed c : classes) {
            if (!MAY_USE.containsKey(c.layer()) && !c.layer().equals(ANYTHING)) {
                bad.add(dotted(c.name()) + " is in no layer (expected one of " + MAY_USE.keySet() + " or " + ANYTHING
                        + "; a new package gets its rule in ArchitectureTest.MAY_USE and its package-info)");
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
        assertEquals(null, violation("loom", "dev/gpureactor/parker/LineParker"));
        assertTrue(violation("parker", "dev/gpureactor/loom/GpuFuture") != null, "the internals never name the API");
        assertTrue(violation("carrier", "dev/gpureactor/parker/ParkerThread") != null, "the pool knows a parker only as a WakeCapture");
        assertTrue(violation("backend", "dev/gpureactor/park/WordWait") != null, "backend loads through loader, not park");
        assertTrue(violation("backend/cuda/raw", "dev/gpureactor/backend/cuda/CudaDriver") != null);
        assertTrue(violation("backend", "dev/gpureactor/host/Uring") != null);
        assertTrue(violation("host", "org/HdrHistogram/Histogram") != null);
        assertTrue(violation("host", "dev/gpureactor/loom/GpuFuture") != null);
        assertTrue(violation("backend", "dev/gpureactor/backend/cuda/CudaBackend") != null, "a sub-package is a layer of its own");
        assertEquals(null, violation("backend/cuda", "dev/gpureactor/backend/MappedPage"));
        assertTrue(violation("backend/cuda", "dev/gpureactor/backend/hip/HipRuntime") != null, "never a sibling");
        assertTrue(violation("bench", "dev/gpureactor/cli/Gar") != null, "an engine never uses the command line");
        assertTrue(violation("demo", "dev/gpureactor/cli/DemoCommand") != null);
        assertEquals(null, violation("bench", "org/HdrHistogram/Histogram"));
        assertTrue(violation("soak", "picocli/CommandLine") != null);
        assertTrue(violation("json", "dev/gpureactor/core/Slot") != null);
        assertTrue(violation("json", "jdk/jfr/Event") != null);
        for (String library : LIBRARY) {
            assertTrue(violation(library, "dev/gpureactor/bench/Goal") != null, library + " never uses a tool");
            assertTrue(violation(library, "dev/gpureactor/json/Json") != null, library + " never uses a tool");
        }
        assertEquals(null, violation("cli", "picocli/CommandLine"));
        assertEquals(null, violation("cli", "dev/gpureactor/loom/GpuFuture"));
        assertEquals("core", layerOf("dev/gpureactor/core/Slot"));
        assertEquals("backend/cuda", layerOf("dev/gpureactor/backend/cuda/CudaPort$1"));
        assertEquals("", layerOf("dev/gpureactor/Loose"));
        Set<String> refs = new TreeSet<>();
        addDescriptor(refs, "(Ljava/util/List<Ldev/gpureactor/core/Slot;>;[Ljava/lang/String;J)Lpicocli/CommandLine$Model;");
        assertEquals(Set.of("java/util/List", "dev/gpureactor/core/Slot", "java/lang/String", "picocli/CommandLine$Model"), refs);
    }

    /** The package graph: each package of the library, and the packages its classes name, with one class edge per step as the witness. */
    static Map<String, Map<String, String>> packageGraph(List<Parsed> from) {
        Map<String, Map<String, String>> graph = new TreeMap<>();
        for (Parsed c : from) {
            Map<String, String> out = graph.computeIfAbsent(c.layer(), k -> new TreeMap<>());
            for (String to : c.references()) {
                if (!to.startsWith(ROOT) || layerOf(to).equals(c.layer())) continue;
                out.putIfAbsent(layerOf(to), simple(c.name()) + " -> " + simple(to));
                graph.computeIfAbsent(layerOf(to), k -> new TreeMap<>());
            }
        }
        return graph;
    }

    static String simple(String internal) { return internal.substring(internal.lastIndexOf('/') + 1); }

    /** Tarjan's strongly connected components of {@code graph}, those of two or more packages, each sorted. */
    static List<Set<String>> cycles(Map<String, Map<String, String>> graph) {
        final class Tarjan {
            final Map<String, Integer> index = new TreeMap<>(), low = new TreeMap<>();
            final Deque<String> stack = new ArrayDeque<>();
            final Set<String> onStack = new HashSet<>();
            final List<Set<String>> found = new ArrayList<>();

            void visit(String v) {
                index.put(v, index.size());
                low.put(v, index.get(v));
                stack.push(v);
                onStack.add(v);
                for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
                    if (!index.containsKey(w)) {
                        visit(w);
                        low.put(v, Math.min(low.get(v), low.get(w)));
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                }
                if (low.get(v).equals(index.get(v))) {
                    Set<String> component = new TreeSet<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    if (component.size() > 1) found.add(component);
                }
            }
        }
        Tarjan t = new Tarjan();
        for (String v : graph.keySet()) if (!t.index.containsKey(v)) t.visit(v);
        return t.found;
    }

    /** One cycle through {@code component}, from its first package back to it, each step with its witness: the failure message. */
    static String describe(Set<String> component, Map<String, Map<String, String>> graph) {
        String start = component.iterator().next();
        Map<String, String> cameFrom = new TreeMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        String last = null;
        search:
        while (!queue.isEmpty()) {
            String v = queue.poll();
            for (String w : graph.get(v).keySet()) {
                if (!component.contains(w)) continue;
                if (w.equals(start)) { last = v; break search; }
                if (cameFrom.putIfAbsent(w, v) == null) queue.add(w);
            }
        }
        List<String> path = new ArrayList<>(List.of(start));
        for (String v = last; !v.equals(start); v = cameFrom.get(v)) path.add(1, v);
        path.add(start);
        StringBuilder out = new StringBuilder("cycle " + String.join(" -> ", path.stream().map(ArchitectureTest::dotted).toList()) + ":");
        for (int i = 0; i + 1 < path.size(); i++) {
            out.append("\n  ").append(dotted(path.get(i))).append(" -> ").append(dotted(path.get(i + 1)))
                    .append(" (").append(graph.get(path.get(i)).get(path.get(i + 1))).append(')');
        }
        return out.toString();
    }

    @Test
    void no_package_cycles() {
        Map<String, Map<String, String>> graph = packageGraph(classes);
        assertTrue(graph.containsKey("backend/cuda") && graph.get("cli").containsKey("loom"), "the graph was built: " + graph.keySet());
        List<String> bad = new ArrayList<>();
        Set<Set<String>> seen = new HashSet<>();
        for (Set<String> c : cycles(graph)) {
            if (ALLOWED_CYCLES.containsKey(c)) seen.add(c);
            else bad.add(describe(c, graph));
        }
        if (!bad.isEmpty()) fail(bad.size() + " package cycle(s) (a sub-package is a package of its own):\n" + String.join("\n", bad));
        assertEquals(ALLOWED_CYCLES.keySet(), seen, "an allowed cycle that is gone should leave ALLOWED_CYCLES");
    }

    @Test
    void the_cycle_finder_names_the_cycle() {
        Map<String, Map<String, String>> graph = new TreeMap<>(Map.of(
                "a", Map.of("b", "A -> B"),
                "b", Map.of("c", "B -> C", "d", "B -> D"),
                "c", Map.of("a", "C -> A"),
                "d", Map.of("e", "D -> E"),
                "e", Map.of("d", "E -> D"),
                "f", Map.of("a", "F -> A")));
        List<Set<String>> found = cycles(graph);
        assertEquals(Set.of(Set.of("a", "b", "c"), Set.of("d", "e")), Set.copyOf(found));
        assertEquals("cycle a -> b -> c -> a:\n  a -> b (A -> B)\n  b -> c (B -> C)\n  c -> a (C -> A)",
                describe(new TreeSet<>(Set.of("a", "b", "c")), graph));
        assertTrue(cycles(Map.of("a", Map.of("b", "x"), "b", Map.<String, String>of())).isEmpty(), "a chain is no cycle");
    }

    /** Every package of every source tree has a package-info: in its own tree, or (a package a test tree shares) in src/main/java or src/tools/java. */
    @Test
    void every_package_has_a_package_info() throws IOException {
        Path project = Path.of(System.getProperty("user.dir"));
        List<String> bad = new ArrayList<>();
        List<String> sharing = List.of("src/main/java", "src/tools/java");
        for (String tree : List.of("src/main/java", "src/tools/java", "src/test/java", "src/jcstress/java", "src/jmh/java")) {
            Path root = project.resolve(tree);
            if (!Files.isDirectory(root)) continue;
            try (Stream<Path> dirs = Files.walk(root)) {
                for (Path d : dirs.filter(Files::isDirectory).toList()) {
                    boolean hasJava;
                    try (Stream<Path> in = Files.list(d)) {
                        hasJava = in.map(f -> f.getFileName().toString())
                                .anyMatch(n -> n.endsWith(".java") && !n.equals("module-info.java"));
                    }
                    Path rel = root.relativize(d);
                    if (hasJava && !Files.exists(d.resolve("package-info.java"))
                            && sharing.stream().noneMatch(s -> Files.exists(project.resolve(s).resolve(rel).resolve("package-info.java")))) {
                        bad.add(tree + "/" + rel + " has no package-info.java (say what it holds and what it may use)");
                    }
                }
            }
        }
        assertTrue(bad.isEmpty(), String.join("\n", bad));
    }

    /** The packages of the library's API: what module-info.java exports, and nothing else. */
    static final Set<String> API = Set.of("core", "loom", "backend", "backend/sim", "backend/cuda", "backend/hip",
            "backend/metal", "host", "host/uring");

    @Test
    void the_module_exports_the_api_packages_only() throws IOException {
        ClassModel module = ClassFile.of().parse(Files.readAllBytes(classesRoot.resolve("module-info.class")));
        ModuleAttribute descriptor = module.findAttribute(Attributes.module()).orElseThrow();
        assertEquals("dev.gpureactor", descriptor.moduleName().name().stringValue());
        Set<String> exported = new TreeSet<>();
        for (ModuleExportInfo e : descriptor.exports()) {
            assertTrue(e.exportsTo().isEmpty(), "no qualified export: " + e);
            exported.add(layerOf(e.exportedPackage().name().stringValue() + "/X"));
        }
        assertEquals(new TreeSet<>(API), exported, "exported packages");
        assertTrue(LIBRARY.containsAll(API), "every API package is a library package");
    }

    /** What the library's own packages need, and nothing for the tools: no static requires, no opens. */
    @Test
    void the_module_requires_what_the_library_needs_and_opens_nothing() throws IOException {
        ClassModel module = ClassFile.of().parse(Files.readAllBytes(classesRoot.resolve("module-info.class")));
        ModuleAttribute descriptor = module.findAttribute(Attributes.module()).orElseThrow();
        Set<String> requires = new TreeSet<>();
        for (ModuleRequireInfo r : descriptor.requires()) {
            assertTrue(!r.has(AccessFlag.STATIC_PHASE), "no static requires (a tool's need): " + r.requires().name());
            requires.add(r.requires().name().stringValue());
        }
        assertEquals(new TreeSet<>(Set.of("java.base", "java.management", "jdk.jfr")), requires, "required modules");
        assertEquals(List.of(), descriptor.opens().stream().map(o -> o.openedPackage().name().stringValue()).toList(),
                "opened packages");
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
