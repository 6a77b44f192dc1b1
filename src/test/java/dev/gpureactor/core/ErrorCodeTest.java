package dev.gpureactor.core;

import static dev.gpureactor.core.Coded.assertCoded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The append-only registry: numbers, names, forms, and that every thrower fills its form. */
class ErrorCodeTest {
    @Test
    void numbers_are_unique_and_run_from_one_without_gaps() {
        ErrorCode[] all = ErrorCode.values();
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < all.length; i++) {
            assertTrue(seen.add(all[i].number()), "duplicate number " + all[i].number());
            assertEquals(i + 1, all[i].number(), all[i] + " is out of registry order");
            assertSame(all[i], ErrorCode.ofNumber(all[i].number()));
        }
        assertCoded(ErrorCode.InvalidArgument, () -> ErrorCode.ofNumber(0));
        assertCoded(ErrorCode.InvalidArgument, () -> ErrorCode.ofNumber(all.length + 1));
    }

    @Test
    void codes_one_to_eight_keep_the_crate_names_and_numbers() {
        Map<String, Integer> crate = new LinkedHashMap<>();
        crate.put("InvalidPlan", 1);
        crate.put("ParkFallback", 2);
        crate.put("ExecutorFallback", 3);
        crate.put("ExecutorRefused", 4);
        crate.put("InvalidExecutor", 5);
        crate.put("PendedInline", 6);
        crate.put("Stalled", 7);
        crate.put("Backend", 8);
        crate.forEach((name, number) -> {
            assertEquals(number, ErrorCode.valueOf(name).number(), name);
            assertEquals(name, ErrorCode.ofNumber(number).name());
        });
        assertEquals(List.of(ErrorCode.ParkFallback, ErrorCode.ExecutorFallback),
                Arrays.stream(ErrorCode.values()).filter(c -> c.number() <= 8 && c.kind() == ErrorCode.Kind.WARNING).toList(),
                "of the crate's codes, only the fallbacks are warnings");
    }

    @Test
    void the_crate_arities_are_kept() {
        assertEquals(3, ErrorCode.InvalidPlan.arity(), "(subject, text, fault)");
        assertEquals(4, ErrorCode.ParkFallback.arity(), "(requested, missing capability, why, runs)");
        assertEquals(3, ErrorCode.ExecutorFallback.arity(), "(requested, why, runs)");
        assertEquals(2, ErrorCode.ExecutorRefused.arity(), "(requested, why)");
        assertEquals(2, ErrorCode.InvalidExecutor.arity(), "(text, accepted)");
        assertEquals(1, ErrorCode.PendedInline.arity(), "(site)");
        assertEquals(1, ErrorCode.Stalled.arity(), "(tasks left)");
    }

    @Test
    void tags_are_four_digits() {
        assertEquals("GAR-0001", ErrorCode.InvalidPlan.tag());
        assertEquals("GAR-0008", ErrorCode.Backend.tag());
        for (ErrorCode c : ErrorCode.values()) assertTrue(c.tag().matches("GAR-\\d{4}"), c.tag());
    }

    @Test
    void every_form_has_a_placeholder_per_argument_and_no_stray_braces() {
        for (ErrorCode c : ErrorCode.values()) {
            assertTrue(c.arity() >= 1, c + " takes no arguments");
            String stripped = c.form().replace("{}", "");
            assertFalse(stripped.contains("{") || stripped.contains("}"), c + " has a stray brace: " + c.form());
        }
    }

    @Test
    void render_substitutes_args_in_order() {
        assertEquals("GAR-0003 ExecutorFallback: io-uring cannot run (io_uring disabled); running gpu-reactor",
                ErrorCode.ExecutorFallback.render(List.of("io-uring", "io_uring disabled", "gpu-reactor")));
        assertEquals("GAR-0001 InvalidPlan: invalid wait plan: \"x\": at 0: bad",
                ErrorCode.InvalidPlan.render(List.of("wait plan", "x", "at 0: bad")));
        assertEquals("GAR-0002 ParkFallback: park a needs b, which is missing (c); running d",
                ErrorCode.ParkFallback.render(List.of("a", "b", "c", "d")));
        assertEquals("GAR-0007 Stalled: stalled: 3 task(s) left and no line or timer to wait on",
                ErrorCode.Stalled.render(List.of("3")));
    }

    @Test
    void render_marks_missing_args_and_keeps_extra_ones() {
        assertEquals("GAR-0004 ExecutorRefused: x cannot run (?) and the setting is strict, so nothing runs in its place",
                ErrorCode.ExecutorRefused.render(List.of("x")));
        assertEquals("GAR-0006 PendedInline: site pended on a host that must finish every wait inline [extra] [more]",
                ErrorCode.PendedInline.render(List.of("site", "extra", "more")));
    }

    @Test
    void args_that_look_like_placeholders_are_not_substituted_again() {
        assertEquals("GAR-0004 ExecutorRefused: {} cannot run ({}{}) and the setting is strict, so nothing runs in its place",
                ErrorCode.ExecutorRefused.render(List.of("{}", "{}{}")));
    }

    @Test
    void an_exception_renders_its_code_and_keeps_its_cause() {
        IllegalStateException cause = new IllegalStateException("root");
        ReactorException e = new ReactorException(ErrorCode.ParkerDied, cause, "line-1", "boom");
        assertSame(cause, e.getCause());
        assertEquals(List.of("line-1", "boom"), e.args());
        assertEquals("GAR-0017 ParkerDied: the parker of line line-1 died: boom", e.getMessage());
        assertEquals(List.of("null", "7"), new ReactorException(ErrorCode.ForeignStream, (Object) null, 7).args().subList(0, 2),
                "a null argument is the text null");
        assertThrows(NullPointerException.class, () -> new ReactorException(null, "x"));
        assertThrows(UnsupportedOperationException.class, () -> e.args().add("x"), "args are immutable");
    }

    @Test
    void a_warning_is_a_value_and_raises_as_its_code() {
        Warning w = Warning.of(ErrorCode.LineLeaked, "line-3", "stream pending");
        assertEquals(ErrorCode.Kind.WARNING, w.code().kind());
        assertEquals("GAR-0019 LineLeaked: line line-3 was leaked instead of freed, since something may still touch it: stream pending",
                w.message());
        assertEquals(w.message(), w.toString());
        ReactorException e = w.raise();
        assertEquals(ErrorCode.LineLeaked, e.code());
        assertEquals(w.args(), e.args());
        assertEquals(w, e.asWarning());
    }

    /** Every thrower in the core that a test can reach passes exactly as many arguments as its code's form takes. */
    @Test
    void every_thrower_in_the_core_fills_its_form() {
        Map<ErrorCode, List<Executable>> throwers = new LinkedHashMap<>();
        throwers.put(ErrorCode.InvalidPlan, List.of(
                () -> WaitPlan.parse("nope")));
        throwers.put(ErrorCode.ExecutorRefused, List.of(() -> ExecutorKind.resolve(ExecutorKind.IO_URING, Strictness.STRICT,
                new HostCaps(Capability.present(), Capability.present(), Capability.present(), Capability.missing("off")))));
        throwers.put(ErrorCode.InvalidExecutor, List.of(() -> ExecutorKind.parse("fill")));
        throwers.put(ErrorCode.SlotOutOfRange, List.of(() -> Slot.of(8), () -> new Slot(-1)));
        throwers.put(ErrorCode.LineClosed, List.of(() -> {
            CompletionLine l = CompletionLine.allocate();
            l.close();
            l.word(Slot.of(0));
        }));
        throwers.put(ErrorCode.BadLineSegment, List.of(
                () -> CompletionLine.wrap(MemorySegment.ofArray(new byte[64]), "heap", () -> {}),
                () -> CompletionLine.wrap(MemorySegment.NULL, "null", () -> {}),
                () -> {
                    try (Arena a = Arena.ofConfined()) {
                        CompletionLine.wrap(a.allocate(128, 64).asSlice(8), "odd", () -> {});
                    }
                }));
        throwers.put(ErrorCode.InvalidArgument, List.of(
                () -> new DeadlinePlan(-1000, 0, 0, 1), () -> new DeadlinePlan(0, 0, 0, 0), () -> new DeadlinePlan(0, 2000, 1000, 1),
                () -> new WaitPlan.FlagWait(0, 1000, Optional.empty()), () -> new WaitPlan.FlagWait(1000, 0, Optional.empty()),
                () -> new ManualClock().advance(-1), () -> new ManualClock(10).set(9),
                () -> ErrorCode.ofNumber(-3)));
        throwers.forEach((code, list) -> list.forEach(t -> assertCoded(code, t)));

        Warning fallback = ExecutorKind.resolve(ExecutorKind.IO_URING, Strictness.FALLBACK,
                new HostCaps(Capability.missing("none"), Capability.present(), Capability.present(), Capability.missing("off")))
                .warning().orElseThrow();
        Coded.assertArity(fallback.code(), fallback.args());
    }

    @Test
    void the_tag_is_ascii_digits_whatever_the_default_locale() {
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            java.util.Locale.setDefault(java.util.Locale.forLanguageTag("th-TH-u-nu-thai")); // Thai digits in a formatted number
            assertEquals("GAR-0001", ErrorCode.values()[0].tag());
            assertTrue(new ReactorException(ErrorCode.values()[0]).getMessage().startsWith("GAR-0001 "));
        } finally {
            java.util.Locale.setDefault(before);
        }
    }

    @Test
    void a_long_argument_is_cut_in_the_message_and_kept_whole_in_the_exception() {
        String huge = "w".repeat(1_000_000);
        ReactorException e = new ReactorException(ErrorCode.Backend, "stream", "s1", -1, "failed", huge);
        assertTrue(e.getMessage().length() < 2 * ErrorCode.ARG_MAX, "message of " + e.getMessage().length() + " chars");
        assertTrue(e.getMessage().endsWith("w… (1000000 chars)"), e.getMessage().substring(e.getMessage().length() - 40));
        assertEquals(huge, e.args().get(4), "the argument itself is kept");
        String pair = "x".repeat(ErrorCode.ARG_MAX - 1) + "\uD83D\uDE00" + "y";
        String cut = ErrorCode.InvalidArgument.render(java.util.List.of("a", pair, "b"));
        assertFalse(Character.isHighSurrogate(cut.charAt(cut.indexOf('…') - 1)), "cut inside a surrogate pair");
    }

    @Test
    void a_null_argument_array_renders_as_no_arguments() {
        ReactorException e = new ReactorException(ErrorCode.LineClosed, (Object[]) null);
        assertEquals("GAR-0010 LineClosed: line ? is closed; cannot ?", e.getMessage());
        assertEquals(List.of(), e.args());
    }
}
