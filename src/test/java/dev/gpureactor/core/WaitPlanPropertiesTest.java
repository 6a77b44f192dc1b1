package dev.gpureactor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Round trips of the plan grammar, and the promise that parse only ever fails with InvalidPlan. */
class WaitPlanPropertiesTest {
    static final String VALID_A = "flag:park_us=100,backstop_us=1000+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=8";
    static final String VALID_B = "poll+predict:margin_us=0,min_sleep_us=0,max_sleep_us=0,window=16";

    /** Any plan built from in-range microsecond fields. */
    @Provide
    static Arbitrary<WaitPlan> plans() {
        Arbitrary<Optional<DeadlinePlan>> predict = Combinators.combine(
                        Arbitraries.longs().between(0, DeadlinePlan.SLEEP_US_MAX),
                        Arbitraries.longs().between(0, DeadlinePlan.SLEEP_US_MAX),
                        Arbitraries.longs().between(0, DeadlinePlan.SLEEP_US_MAX),
                        Arbitraries.integers().between(1, DeadlinePlan.WINDOW_MAX))
                .as((m, a, b, w) -> new DeadlinePlan(m * 1000, Math.min(a, b) * 1000, Math.max(a, b) * 1000, w))
                .optional();
        Arbitrary<WaitPlan> flag = Combinators.combine(
                        Arbitraries.longs().between(1, WaitPlan.PARK_US_MAX).edgeCases(c -> c.includeOnly(1L, WaitPlan.PARK_US_MAX)),
                        Arbitraries.longs().between(1, WaitPlan.BACKSTOP_US_MAX),
                        predict)
                .as((p, b, d) -> new WaitPlan.FlagWait(p * 1000, b * 1000, d));
        Arbitrary<WaitPlan> poll = predict.map(WaitPlan.QueryPoll::new);
        return Arbitraries.oneOf(flag, poll, Arbitraries.just(new WaitPlan.Block()));
    }

    @Property(tries = 2000)
    void every_valid_plan_round_trips(@ForAll("plans") WaitPlan plan) {
        String label = plan.label();
        WaitPlan back = WaitPlan.parse(label);
        assertEquals(plan, back);
        assertEquals(label, back.label());
    }

    /** Any nanosecond fields: a plan either cannot be built (InvalidArgument) or labels to a text that parses back to it. */
    @Property(tries = 2000)
    void every_plan_that_can_be_built_round_trips(
            @ForAll @LongRange(min = -2_000, max = 1_000_002_000) long park,
            @ForAll @LongRange(min = -2_000, max = 1_000_002_000) long backstop,
            @ForAll @LongRange(min = -2_000, max = 61_000_000_000L) long margin,
            @ForAll @LongRange(min = -2_000, max = 61_000_000_000L) long min,
            @ForAll @LongRange(min = -2_000, max = 61_000_000_000L) long max,
            @ForAll @IntRange(min = -1, max = 18) int window,
            @ForAll boolean withPredict,
            @ForAll boolean roundPark) {
        // Bias toward buildable values: most tries use whole microseconds.
        if (roundPark) {
            park = park / 1000 * 1000 % 10_001_000;
            backstop = backstop / 1000 * 1000;
            margin = margin / 1000 * 1000;
            min = min / 1000 * 1000;
            max = Math.max(min, max / 1000 * 1000);
        }
        WaitPlan plan;
        try {
            Optional<DeadlinePlan> d = withPredict ? Optional.of(new DeadlinePlan(margin, min, max, window)) : Optional.empty();
            plan = new WaitPlan.FlagWait(park, backstop, d);
        } catch (ReactorException e) {
            assertEquals(ErrorCode.InvalidArgument, e.code(), e.getMessage());
            Coded.assertArity(e.code(), e.args());
            return;
        }
        assertEquals(plan, WaitPlan.parse(plan.label()));
    }

    @Provide
    static Arbitrary<String> texts() {
        Arbitrary<String> valid = Arbitraries.of("block", "poll", "flag:park_us=100,backstop_us=1000", VALID_A, VALID_B)
                .injectDuplicates(0.1);
        Arbitrary<Character> alphabet = Arbitraries.oneOf(
                Arbitraries.of('0', '1', '9', '+', ':', ',', '=', ';', '_', ' ', '-', 'x', '\n', '\u00e9', '\uFF11', '\u0000'),
                Arbitraries.chars().ascii(),
                Arbitraries.chars());
        Arbitrary<String> mutated = Combinators.combine(plans().map(WaitPlan::label), Arbitraries.integers().between(0, 1000),
                        Arbitraries.integers().between(0, 3), alphabet)
                .as((text, where, how, c) -> mutate(text, where, how, c));
        Arbitrary<String> twiceMutated = Combinators.combine(mutated, Arbitraries.integers().between(0, 1000),
                        Arbitraries.integers().between(0, 3), alphabet)
                .as((text, where, how, c) -> mutate(text, where, how, c));
        Arbitrary<String> spliced = Combinators.combine(plans().map(WaitPlan::label), plans().map(WaitPlan::label),
                        Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 1000))
                .as((a, b, i, j) -> a.substring(0, i % (a.length() + 1)) + b.substring(j % (b.length() + 1)));
        Arbitrary<String> random = Arbitraries.strings().withChars("blockpollflag:_usrktepdigmnwx=,+0123456789").ofMaxLength(120);
        return Arbitraries.oneOf(valid, mutated, twiceMutated, spliced, random, Arbitraries.strings().ofMaxLength(40));
    }

    static String mutate(String text, int where, int how, char c) {
        int at = where % (text.length() + 1);
        return switch (how) {
            case 0 -> text.substring(0, at) + c + text.substring(at); // insert
            case 1 -> at < text.length() ? text.substring(0, at) + text.substring(at + 1) : text; // delete
            case 2 -> at < text.length() ? text.substring(0, at) + c + text.substring(at + 1) : text + c; // replace
            default -> text.substring(0, at); // truncate
        };
    }

    /**
     * Any text either parses, and then is its own canonical label, or fails with InvalidPlan naming it (quoted whole when
     * short and plain, else escaped and cut): never another exception, and a message that is one bounded, well-formed line.
     */
    @Property(tries = 5000, edgeCases = EdgeCasesMode.NONE)
    void any_text_parses_to_its_label_or_fails_with_invalid_plan(@ForAll("texts") String text) {
        WaitPlan plan;
        try {
            plan = WaitPlan.parse(text);
        } catch (ReactorException e) {
            assertEquals(ErrorCode.InvalidPlan, e.code(), e.getMessage());
            assertEquals(List.of("wait plan", WaitPlanTest.plain(text) ? text : WaitPlanText.quote(text)), e.args().subList(0, 2));
            String m = e.getMessage();
            assertEquals(true, m.chars().noneMatch(Character::isISOControl), m);
            WaitPlanTest.assertNoLoneSurrogate(m);
            assertEquals(true, m.length() < 400, m);
            Coded.assertArity(e.code(), e.args());
            String detail = e.args().get(2);
            int at = Integer.parseInt(detail.substring(3, detail.indexOf(':')));
            assertEquals(true, at >= 0 && at <= text.length(), detail);
            return;
        }
        assertEquals(text, plan.label());
    }
}
