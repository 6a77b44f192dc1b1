package dev.gpureactor.core;

import static dev.gpureactor.core.Coded.assertCoded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The declared fallback chain io-uring → gpu-reactor → naive, every combination. */
class ExecutorKindTest {
    static final String NO_URING = "io_uring disabled";
    static final String NO_PARKERS = "threads forbidden";

    static HostCaps caps(boolean ioUring, boolean parkers) {
        return new HostCaps(parkers ? Capability.present() : Capability.missing(NO_PARKERS), Capability.present(),
                Capability.present(), ioUring ? Capability.present() : Capability.missing(NO_URING));
    }

    /** The expected result, spelled out independently of the implementation: (runs, why) or runs with no why. */
    record Expect(ExecutorKind runs, String why) {}

    static Expect expect(ExecutorKind kind, boolean ioUring, boolean parkers) {
        return switch (kind) {
            case NAIVE -> new Expect(ExecutorKind.NAIVE, null);
            case GPU_REACTOR -> parkers ? new Expect(ExecutorKind.GPU_REACTOR, null)
                    : new Expect(ExecutorKind.NAIVE, "no parker threads: " + NO_PARKERS);
            case IO_URING -> {
                if (ioUring && parkers) yield new Expect(ExecutorKind.IO_URING, null);
                if (!ioUring) yield new Expect(parkers ? ExecutorKind.GPU_REACTOR : ExecutorKind.NAIVE, "io_uring unavailable: " + NO_URING);
                yield new Expect(ExecutorKind.NAIVE, "no parker threads: " + NO_PARKERS);
            }
        };
    }

    static Stream<Arguments> combinations() {
        List<Arguments> all = new ArrayList<>();
        for (ExecutorKind k : ExecutorKind.values())
            for (Strictness s : Strictness.values())
                for (boolean uring : new boolean[] {true, false})
                    for (boolean parkers : new boolean[] {true, false}) all.add(Arguments.of(k, s, uring, parkers));
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1} io_uring={2} parkers={3}")
    @MethodSource("combinations")
    void resolve(ExecutorKind kind, Strictness strictness, boolean ioUring, boolean parkers) {
        Expect want = expect(kind, ioUring, parkers);
        HostCaps caps = caps(ioUring, parkers);
        if (want.why() == null) {
            Declared.Resolved<ExecutorKind> r = ExecutorKind.resolve(kind, strictness, caps);
            assertSame(kind, r.requested());
            assertSame(kind, r.running());
            assertEquals(Optional.empty(), r.warning());
            assertEquals(kind.declaredName(), r.label());
        } else if (strictness == Strictness.STRICT) {
            ReactorException e = assertCoded(ErrorCode.ExecutorRefused, List.of(kind.declaredName(), want.why()),
                    () -> ExecutorKind.resolve(kind, strictness, caps));
            assertTrue(e.getMessage().contains(kind.declaredName()), e.getMessage());
        } else {
            Declared.Resolved<ExecutorKind> r = ExecutorKind.resolve(kind, strictness, caps);
            assertSame(kind, r.requested());
            assertSame(want.runs(), r.running());
            Warning w = r.warning().orElseThrow();
            assertEquals(ErrorCode.ExecutorFallback, w.code());
            assertEquals(ErrorCode.Kind.WARNING, w.code().kind());
            assertEquals(List.of(kind.declaredName(), want.why(), want.runs().declaredName()), w.args());
            Coded.assertArity(w.code(), w.args());
            assertEquals("GAR-0003 ExecutorFallback: " + kind.declaredName() + " cannot run (" + want.why() + "); running "
                    + want.runs().declaredName(), w.message());
            assertEquals(want.runs().declaredName() + " (fallback for " + kind.declaredName() + ")", r.label());
            assertTrue(r.label().startsWith(want.runs().declaredName()));
        }
    }

    @Test
    void io_uring_missing_runs_gpu_reactor_with_an_executor_fallback_warning() {
        Declared.Resolved<ExecutorKind> r = ExecutorKind.resolve(ExecutorKind.IO_URING, Strictness.FALLBACK, caps(false, true));
        assertEquals(ExecutorKind.GPU_REACTOR, r.running());
        assertEquals(ErrorCode.ExecutorFallback, r.warning().orElseThrow().code());
        assertEquals(List.of("io-uring", "io_uring unavailable: io_uring disabled", "gpu-reactor"), r.warning().orElseThrow().args());
    }

    @Test
    void the_caps_the_executors_do_not_need_change_nothing() {
        HostCaps bare = new HostCaps(Capability.present(), Capability.missing("java.lang not opened"),
                Capability.missing("no user-mode WFE"), Capability.present());
        for (ExecutorKind k : ExecutorKind.values()) {
            for (Strictness s : Strictness.values()) {
                Declared.Resolved<ExecutorKind> r = ExecutorKind.resolve(k, s, bare);
                assertSame(k, r.running());
                assertEquals(Optional.empty(), r.warning());
                assertEquals(k.declaredName(), r.label());
            }
        }
    }

    @Test
    void a_strict_refusal_raised_from_its_warning_keeps_the_code_and_args() {
        Warning w = ExecutorKind.resolve(ExecutorKind.GPU_REACTOR, Strictness.FALLBACK, caps(true, false)).warning().orElseThrow();
        ReactorException e = w.raise();
        assertEquals(w.code(), e.code());
        assertEquals(w.args(), e.args());
        assertEquals(w, e.asWarning());
        assertEquals(w.message(), e.getMessage());
    }

    @Test
    void names_parse_and_print() {
        assertEquals(List.of("naive", "gpu-reactor", "io-uring"),
                Stream.of(ExecutorKind.values()).map(ExecutorKind::declaredName).toList(), "declared order");
        for (ExecutorKind k : ExecutorKind.values()) {
            assertSame(k, ExecutorKind.parse(k.declaredName()));
            assertEquals(k.declaredName(), k.toString());
        }
        assertEquals("naive, gpu-reactor, io-uring", ExecutorKind.acceptedNames());
    }

    @Test
    void an_unknown_name_is_invalid_executor_listing_the_accepted_names() {
        for (String bad : new String[] {"fill", "NAIVE", "io_uring", "gpu_reactor", "", " naive", "naive "}) {
            ReactorException e = assertCoded(ErrorCode.InvalidExecutor, List.of(bad, "naive, gpu-reactor, io-uring"),
                    () -> ExecutorKind.parse(bad));
            assertEquals("GAR-0005 InvalidExecutor: unknown executor \"" + bad + "\"; accepted: naive, gpu-reactor, io-uring",
                    e.getMessage());
        }
    }

    @Test
    void the_chain_ends_at_naive() {
        assertEquals(Optional.of(ExecutorKind.GPU_REACTOR), ExecutorKind.IO_URING.fallback());
        assertEquals(Optional.of(ExecutorKind.NAIVE), ExecutorKind.GPU_REACTOR.fallback());
        assertEquals(Optional.empty(), ExecutorKind.NAIVE.fallback());
    }

    @Test
    void resolve_rejects_nulls() {
        assertThrows(NullPointerException.class, () -> ExecutorKind.resolve(null, Strictness.FALLBACK, HostCaps.everything()));
        assertThrows(NullPointerException.class, () -> ExecutorKind.resolve(ExecutorKind.NAIVE, null, HostCaps.everything()));
        assertThrows(NullPointerException.class, () -> ExecutorKind.resolve(ExecutorKind.NAIVE, Strictness.FALLBACK, null));
    }

    /** A declared setting whose chain has no value that can run: refused even when falling back is allowed. */
    enum Lonely implements Declared<Lonely, Boolean> {
        ONLY;

        @Override public String declaredName() { return "only"; }
        @Override public Optional<String> lacks(Boolean ok) { return ok ? Optional.empty() : Optional.of("not here"); }
        @Override public Optional<Lonely> fallback() { return Optional.empty(); }
    }

    @Test
    void a_chain_with_nothing_that_runs_is_refused() {
        ReactorException e = assertCoded(ErrorCode.ExecutorRefused, () -> Declared.resolve(Lonely.ONLY, Strictness.FALLBACK, false));
        assertEquals("only", e.args().get(0));
        assertTrue(e.args().get(1).startsWith("not here"), e.args().get(1));
        assertSame(Lonely.ONLY, Declared.resolve(Lonely.ONLY, Strictness.STRICT, true).running());
    }
}
