package dev.gpureactor.core;

import static dev.gpureactor.core.Coded.assertCoded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Banded plans: grammar, round trip, selection at every edge, faults, StepRows. */
class WaitBandsTest {
    static final String FLAG = "flag:park_us=100,backstop_us=1000";
    static final String PREDICT = "+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=8";
    static final String FOUR = "poll;rows>=8:" + FLAG + ";rows>=64:" + FLAG + PREDICT + ";rows>=1024:block";

    static ReactorException fault(String text, int at, String what) {
        ReactorException e = assertCoded(ErrorCode.InvalidPlan, () -> WaitBands.parse(text));
        assertEquals("wait bands", e.args().get(0));
        assertEquals(text, e.args().get(1));
        String detail = e.args().get(2);
        assertTrue(detail.startsWith("at " + at + ": "), () -> "position " + at + " in: " + detail);
        assertTrue(detail.contains(what), () -> "\"" + what + "\" in: " + detail);
        assertTrue(e.getMessage().contains(text), e.getMessage());
        return e;
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "block", "poll", FLAG, "poll" + PREDICT,
        "poll;rows>=8:" + FLAG,
        FOUR,
        "block;rows>=1:poll",
        "poll;rows>=999999999:block",
        "poll;rows>=2147483646:block;rows>=2147483647:" + FLAG,
    })
    void parse_then_label_is_the_text(String text) {
        WaitBands b = WaitBands.parse(text);
        assertEquals(text, b.label());
        assertEquals(b, WaitBands.parse(b.label()));
    }

    @Test
    void parsed_bands_hold_the_plans_and_edges() {
        WaitBands b = WaitBands.parse(FOUR);
        assertEquals(4, b.bands().size());
        assertEquals(List.of(0, 8, 64, 1024), b.bands().stream().map(WaitBands.Band::fromRows).toList());
        assertEquals(WaitPlan.parse("poll"), b.bands().get(0).plan());
        assertEquals(WaitPlan.parse(FLAG), b.bands().get(1).plan());
        assertEquals(WaitPlan.parse(FLAG + PREDICT), b.bands().get(2).plan());
        assertEquals(new WaitPlan.Block(), b.bands().get(3).plan());
    }

    @Test
    void built_bands_label_and_parse_back() {
        WaitBands b = new WaitBands(List.of(
                new WaitBands.Band(0, new WaitPlan.QueryPoll(Optional.empty())),
                new WaitBands.Band(Integer.MAX_VALUE, WaitPlan.recommended())));
        assertEquals("poll;rows>=2147483647:" + FLAG, b.label());
        assertEquals(b, WaitBands.parse(b.label()));
    }

    @Test
    void select_at_every_edge() {
        WaitBands b = WaitBands.parse(FOUR);
        int[] edges = {0, 8, 64, 1024};
        for (int i = 0; i < edges.length; i++) {
            WaitPlan own = b.bands().get(i).plan();
            assertSame(own, b.select(edges[i]), "at edge " + edges[i]);
            assertSame(own, b.select(edges[i] + 1), "at edge+1 " + edges[i]);
            if (i > 0) assertSame(b.bands().get(i - 1).plan(), b.select(edges[i] - 1), "at edge-1 " + edges[i]);
            if (i + 1 < edges.length) assertSame(own, b.select(edges[i + 1] - 1), "last row of band " + i);
        }
        assertSame(b.bands().get(0).plan(), b.select(0));
        assertSame(b.bands().get(3).plan(), b.select(Integer.MAX_VALUE));
        WaitBands one = WaitBands.parse("poll");
        assertSame(one.bands().get(0).plan(), one.select(0));
        assertSame(one.bands().get(0).plan(), one.select(Integer.MAX_VALUE));
        WaitBands top = WaitBands.parse("poll;rows>=2147483647:block");
        assertEquals(WaitPlan.parse("poll"), top.select(Integer.MAX_VALUE - 1));
        assertEquals(new WaitPlan.Block(), top.select(Integer.MAX_VALUE));
    }

    @Test
    void more_than_four_bands() {
        String five = FOUR + ";rows>=2048:poll";
        fault(five, FOUR.length() + 1, "more than 4 bands");
    }

    @Test
    void edges_must_strictly_increase() {
        String equal = "poll;rows>=8:block;rows>=8:poll";
        fault(equal, equal.lastIndexOf("8"), "band edge 8 must be greater than the previous edge 8");
        String down = "poll;rows>=8:block;rows>=4:poll";
        fault(down, down.lastIndexOf("4"), "band edge 4 must be greater than the previous edge 8");
        fault("poll;rows>=0:block", 11, "band edge 0 must be greater than the previous edge 0");
    }

    @Test
    void later_bands_need_rows() {
        fault("poll;block", 5, "expected \"rows>=\"");
        fault("poll;", 5, "expected \"rows>=\"");
        fault("poll;rows>8:block", 5, "expected \"rows>=\"");
        fault("poll;;rows>=8:block", 5, "expected \"rows>=\"");
        fault("poll;rows>=:block", 11, "expected a decimal row count");
        fault("poll;rows>=-1:block", 11, "expected a decimal row count");
        fault("poll;rows>=08:block", 11, "row count has a leading zero");
        fault("poll;rows>=8block", 12, "expected \":\"");
        fault("poll;rows>=8", 12, "expected \":\"");
        fault("poll;rows>=8;block", 12, "expected \":\"");
        fault("poll;rows>=2147483648:block", 11, "out of range");
        fault("poll;rows>=99999999999999999999:block", 11, "out of range");
        fault("rows>=0:poll", 0, "expected \"block\", \"poll\" or \"flag:\"");
    }

    @Test
    void a_bad_plan_inside_a_band_reports_its_position_in_the_whole_text() {
        String t = "poll;rows>=8:flag:park_us=0,backstop_us=1000;rows>=16:block";
        fault(t, t.indexOf("0,backstop"), "park_us=0 is out of range 1..10000");
        String u = "poll;rows>=8:block+predict:margin_us=1,min_sleep_us=1,max_sleep_us=1,window=1";
        fault(u, u.indexOf("+predict"), "\"block\" takes no \"+predict:\"");
        String v = "poll;rows>=8:";
        fault(v, v.length(), "found the end of the text");
        String w = "poll;rows>=8:flag:park_us=100;rows>=9:poll";
        fault(w, w.indexOf(";rows>=9"), "expected \",\", found the end of the band");
        String x = "pol;rows>=8:poll";
        fault(x, 0, "expected \"block\", \"poll\" or \"flag:\"");
        String y = "poll+;rows>=8:poll";
        fault(y, 4, "expected \"+predict:\"");
        fault("", 0, "found the end of the text");
    }

    @Test
    void null_text() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> WaitBands.parse(null));
        assertEquals("text", e.getMessage());
    }

    @Test
    void bands_that_cannot_exist_cannot_be_built() {
        WaitPlan poll = WaitPlan.parse("poll");
        assertCoded(ErrorCode.InvalidArgument, () -> new WaitBands(List.of()));
        assertCoded(ErrorCode.InvalidArgument, () -> new WaitBands(List.of(new WaitBands.Band(1, poll))));
        assertCoded(ErrorCode.InvalidArgument,
                () -> new WaitBands(List.of(new WaitBands.Band(0, poll), new WaitBands.Band(5, poll), new WaitBands.Band(5, poll))));
        assertCoded(ErrorCode.InvalidArgument, () -> new WaitBands(List.of(new WaitBands.Band(0, poll), new WaitBands.Band(1, poll),
                new WaitBands.Band(2, poll), new WaitBands.Band(3, poll), new WaitBands.Band(4, poll))));
        assertCoded(ErrorCode.InvalidArgument, () -> new WaitBands.Band(-1, poll));
        assertThrows(NullPointerException.class, () -> new WaitBands.Band(0, null));
    }

    @Test
    void step_rows_publishes_the_row_count_the_waits_select_by() {
        WaitBands b = WaitBands.parse(FOUR);
        StepRows rows = new StepRows();
        assertEquals(0, rows.rows());
        assertSame(b.bands().get(0).plan(), rows.select(b));
        rows.publish(8);
        assertEquals(8, rows.rows());
        assertSame(b.bands().get(1).plan(), rows.select(b));
        rows.publish(63);
        assertSame(b.bands().get(1).plan(), rows.select(b));
        rows.publish(64);
        assertSame(b.bands().get(2).plan(), rows.select(b));
        rows.publish(Integer.MAX_VALUE);
        assertSame(b.bands().get(3).plan(), rows.select(b));
        rows.publish(0);
        assertSame(b.bands().get(0).plan(), rows.select(b));
        assertCoded(ErrorCode.InvalidArgument, List.of("rows", "-1", ">= 0"), () -> rows.publish(-1));
        assertEquals(0, rows.rows(), "a refused count leaves the published one");
    }
}
