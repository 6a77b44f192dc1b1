package dev.gpureactor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The band parser fuzzed on its own structure (the {@code ;rows>=N:} frames, their count and
 * edges), not only on the plans inside a fixed frame as {@code WaitPlanPropertiesTest} does: any
 * text either parses to bands whose label is the text, or fails with {@link ErrorCode#InvalidPlan}
 * naming the text and a position inside it; never another exception.
 */
class WaitBandsPropertiesTest {
    /** Valid bands: 1..4 of them, strictly increasing edges from 0, any plans. */
    @Provide
    static Arbitrary<WaitBands> bands() {
        Arbitrary<List<Integer>> gaps = Arbitraries.integers().between(1, Integer.MAX_VALUE / 4)
                .edgeCases(c -> c.includeOnly(1, Integer.MAX_VALUE / 4)).list().ofMinSize(0).ofMaxSize(WaitBands.MAX - 1);
        return Combinators.combine(gaps, WaitPlanPropertiesTest.plans().list().ofSize(WaitBands.MAX)).as((g, plans) -> {
            List<WaitBands.Band> out = new ArrayList<>();
            int edge = 0;
            out.add(new WaitBands.Band(0, plans.get(0)));
            for (int i = 0; i < g.size(); i++) {
                edge += g.get(i);
                out.add(new WaitBands.Band(edge, plans.get(i + 1)));
            }
            return new WaitBands(out);
        });
    }

    @Property(tries = 1000)
    void every_valid_band_set_round_trips(@ForAll("bands") WaitBands b) {
        assertEquals(b, WaitBands.parse(b.label()));
        assertEquals(b.label(), WaitBands.parse(b.label()).label());
    }

    @Provide
    static Arbitrary<String> bandTexts() {
        Arbitrary<Character> alphabet = Arbitraries.oneOf(
                Arbitraries.of(';', ':', '>', '=', 'r', 'o', 'w', 's', '0', '1', '9', '-', '+', ' ', '\u0660', '\uFF11', '\u0000'),
                Arbitraries.chars().ascii(),
                Arbitraries.chars());
        Arbitrary<String> labels = bands().map(WaitBands::label);
        Arbitrary<String> mutated = Combinators.combine(labels, Arbitraries.integers().between(0, 2000),
                        Arbitraries.integers().between(0, 3), alphabet)
                .as((t, where, how, c) -> WaitPlanPropertiesTest.mutate(t, where, how, c));
        Arbitrary<String> twice = Combinators.combine(mutated, Arbitraries.integers().between(0, 2000),
                        Arbitraries.integers().between(0, 3), alphabet)
                .as((t, where, how, c) -> WaitPlanPropertiesTest.mutate(t, where, how, c));
        Arbitrary<String> spliced = Combinators.combine(labels, labels, Arbitraries.integers().between(0, 2000),
                        Arbitraries.integers().between(0, 2000))
                .as((a, b, i, j) -> a.substring(0, i % (a.length() + 1)) + b.substring(j % (b.length() + 1)));
        Arbitrary<String> framed = Combinators.combine(labels, Arbitraries.of("", ";", ";;", ";rows>=", ";rows>=:", ";rows>=0:block",
                        ";rows>=00:block", ";rows>=-1:block", ";rows>=2147483647:block", ";rows>=2147483648:block",
                        ";rows>=99999999999999999999:block", ";rows>=\u0661:block", ";rows>=1:block;rows>=1:poll", ";ROWS>=5:poll"),
                        Arbitraries.integers().between(0, 5))
                .as((l, tail, n) -> l + tail.repeat(n));
        Arbitrary<String> random = Arbitraries.strings().withChars("rows>=:;0123456789blockpollflag_usrktepdigmnwx,+").ofMaxLength(160);
        return Arbitraries.oneOf(mutated, twice, spliced, framed, random);
    }

    @Property(tries = 5000, edgeCases = EdgeCasesMode.NONE)
    void any_text_parses_to_its_label_or_fails_with_invalid_plan_at_a_position_in_it(@ForAll("bandTexts") String text) {
        WaitBands b;
        try {
            b = WaitBands.parse(text);
        } catch (ReactorException e) {
            assertEquals(ErrorCode.InvalidPlan, e.code(), e.getMessage());
            assertEquals(List.of("wait bands", text), e.args().subList(0, 2));
            Coded.assertArity(e.code(), e.args());
            String detail = e.args().get(2);
            assertTrue(detail.startsWith("at "), detail);
            int at = Integer.parseInt(detail.substring(3, detail.indexOf(':')));
            assertTrue(at >= 0 && at <= text.length(), detail + " in a text of " + text.length());
            return;
        }
        assertEquals(text, b.label());
        assertTrue(b.bands().size() >= 1 && b.bands().size() <= WaitBands.MAX);
    }
}
