package dev.gpureactor.core;

import static dev.gpureactor.core.Coded.assertCoded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The plan grammar: the five measured arms, and every fault with its text and position. */
class WaitPlanTest {
    static final String FIXTURE = "predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=8";
    static final DeadlinePlan FIXTURE_PLAN = new DeadlinePlan(150_000, 20_000, 50_000_000, 8);
    static final String FLAG = "flag:park_us=100,backstop_us=1000";

    // ---- the five arms ----

    @Test
    void block() {
        WaitPlan p = WaitPlan.parse("block");
        assertEquals(new WaitPlan.Block(), p);
        assertEquals(Optional.empty(), p.predict());
        assertEquals("block", p.label());
    }

    @Test
    void poll() {
        WaitPlan p = WaitPlan.parse("poll");
        assertEquals(new WaitPlan.QueryPoll(Optional.empty()), p);
        assertEquals("poll", p.label());
    }

    @Test
    void poll_with_prediction() {
        String text = "poll+" + FIXTURE;
        WaitPlan p = WaitPlan.parse(text);
        WaitPlan.QueryPoll q = (WaitPlan.QueryPoll) p;
        DeadlinePlan d = q.predict().orElseThrow();
        assertEquals(150_000, d.marginNanos());
        assertEquals(20_000, d.minSleepNanos());
        assertEquals(50_000_000, d.maxSleepNanos());
        assertEquals(8, d.window());
        assertEquals(text, p.label());
    }

    @Test
    void flag() {
        WaitPlan p = WaitPlan.parse(FLAG);
        WaitPlan.FlagWait f = (WaitPlan.FlagWait) p;
        assertEquals(100_000, f.parkNanos());
        assertEquals(1_000_000, f.backstopNanos());
        assertEquals(Optional.empty(), f.predict());
        assertEquals(FLAG, p.label());
        assertEquals(WaitPlan.recommended(), p, "the crate's recommended plan");
    }

    @Test
    void flag_with_prediction() {
        String text = FLAG + "+" + FIXTURE;
        WaitPlan p = WaitPlan.parse(text);
        assertEquals(new WaitPlan.FlagWait(100_000, 1_000_000, Optional.of(FIXTURE_PLAN)), p);
        assertEquals(text, p.label());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "block", "poll", "poll+" + FIXTURE, FLAG, FLAG + "+" + FIXTURE,
        "flag:park_us=1,backstop_us=1", "flag:park_us=10000,backstop_us=1000000",
        "poll+predict:margin_us=0,min_sleep_us=0,max_sleep_us=0,window=1",
        "poll+predict:margin_us=60000000,min_sleep_us=60000000,max_sleep_us=60000000,window=16",
        "poll+predict:margin_us=5,min_sleep_us=7,max_sleep_us=7,window=3",
    })
    void parse_then_label_is_the_text(String text) {
        WaitPlan p = WaitPlan.parse(text);
        assertEquals(text, p.label());
        assertEquals(p, WaitPlan.parse(p.label()));
    }

    @Test
    void built_plans_label_as_written() {
        assertEquals(FLAG + "+" + FIXTURE, new WaitPlan.FlagWait(100_000, 1_000_000, Optional.of(FIXTURE_PLAN)).label());
        assertEquals("poll+" + FIXTURE, new WaitPlan.QueryPoll(Optional.of(FIXTURE_PLAN)).label());
        assertEquals("block", new WaitPlan.Block().label());
    }

    // ---- faults: code InvalidPlan, args (subject, text, "at P: ..."), and the message names the text ----

    /**
     * Asserts the fault and returns its third argument ("at P: what, found ..."). The text is quoted whole when short and
     * plain; else as {@link WaitPlanText#quote} gives it, whose cut and escapes the quote tests below pin.
     */
    static String fault(String text, int at, String what) {
        ReactorException e = assertCoded(ErrorCode.InvalidPlan, () -> WaitPlan.parse(text));
        assertEquals("wait plan", e.args().get(0));
        String quoted = plain(text) ? text : WaitPlanText.quote(text);
        assertEquals(quoted, e.args().get(1));
        String detail = e.args().get(2);
        assertTrue(detail.startsWith("at " + at + ": "), () -> "position " + at + " in: " + detail);
        assertTrue(detail.contains(what), () -> "\"" + what + "\" in: " + detail);
        assertTrue(e.getMessage().startsWith("GAR-0001 InvalidPlan: "), e.getMessage());
        assertTrue(e.getMessage().contains("\"" + quoted + "\""), e.getMessage());
        return detail;
    }

    /** A text a fault quotes as it is: printable ASCII but the quote and the backslash, and at most QUOTE_MAX long. */
    static boolean plain(String text) {
        return text.length() <= WaitPlanText.QUOTE_MAX && text.chars().allMatch(c -> c >= ' ' && c < 0x7f && c != '"' && c != '\\');
    }

    @Test
    void unknown_park() {
        assertEquals("at 0: expected \"block\", \"poll\" or \"flag:\", found \"sleep\"",
                fault("sleep", 0, "expected \"block\", \"poll\" or \"flag:\""));
        fault("POLL", 0, "expected \"block\", \"poll\" or \"flag:\"");
        fault(" poll", 0, "expected \"block\", \"poll\" or \"flag:\"");
        fault("flag", 0, "expected \"block\", \"poll\" or \"flag:\"");
        fault("+" + FIXTURE, 0, "expected \"block\", \"poll\" or \"flag:\"");
    }

    @Test
    void block_takes_no_prediction() {
        fault("block+" + FIXTURE, 5, "\"block\" takes no \"+predict:\"");
        fault("block+", 5, "\"block\" takes no \"+predict:\"");
    }

    @Test
    void missing_key() {
        assertEquals("at 16: expected \",\", found the end of the text", fault("flag:park_us=100", 16, "expected \",\""));
        fault("flag:", 5, "expected \"park_us=\"");
        fault("flag:backstop_us=1000", 5, "expected \"park_us=\"");
        fault("flag:park_us=100,", 17, "expected \"backstop_us=\"");
        String noMin = "poll+predict:margin_us=150,max_sleep_us=50000,window=8";
        fault(noMin, noMin.indexOf("max_sleep_us"), "expected \"min_sleep_us=\"");
        String noWindow = "poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000";
        fault(noWindow, noWindow.length(), "expected \",\", found the end of the text");
        fault("poll+predict:", 13, "expected \"margin_us=\"");
        fault("poll+", 4, "expected \"+predict:\"");
    }

    @Test
    void repeated_or_misordered_key() {
        fault("flag:park_us=100,park_us=100,backstop_us=1000", 17, "expected \"backstop_us=\"");
        fault("flag:backstop_us=1000,park_us=100", 5, "expected \"park_us=\"");
        String swapped = "poll+predict:min_sleep_us=20,margin_us=150,max_sleep_us=50000,window=8";
        fault(swapped, 13, "expected \"margin_us=\"");
        String twice = "poll+predict:margin_us=150,margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=8";
        fault(twice, 27, "expected \"min_sleep_us=\"");
        String again = FLAG + "+" + FIXTURE + "+" + FIXTURE;
        fault(again, (FLAG + "+" + FIXTURE).length(), "expected the end of the plan");
        fault(FLAG + ",park_us=100", FLAG.length(), "expected \"+predict:\"");
    }

    @Test
    void empty_number() {
        assertEquals("at 13: expected a decimal number for park_us, found \",backstop_us=1000\"",
                fault("flag:park_us=,backstop_us=1000", 13, "expected a decimal number for park_us"));
        fault("flag:park_us=100,backstop_us=", 29, "expected a decimal number for backstop_us, found the end of the text");
        fault("flag:park_us=-1,backstop_us=1000", 13, "expected a decimal number for park_us");
        fault("flag:park_us=+1,backstop_us=1000", 13, "expected a decimal number for park_us");
        fault("flag:park_us= 1,backstop_us=1000", 13, "expected a decimal number for park_us");
        fault("flag:park_us=\uFF11\uFF10\uFF10,backstop_us=1000", 13, "expected a decimal number for park_us");
        fault("flag:park_us=\u0661,backstop_us=1000", 13, "expected a decimal number for park_us");
        String noWindow = "poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=";
        fault(noWindow, noWindow.length(), "expected a decimal number for window");
    }

    @Test
    void leading_zero() {
        assertEquals("at 13: park_us has a leading zero; write the number plainly, found \"0100,backstop_us=1000\"",
                fault("flag:park_us=0100,backstop_us=1000", 13, "park_us has a leading zero"));
        fault("flag:park_us=00,backstop_us=1000", 13, "park_us has a leading zero");
        String w = "poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=08";
        fault(w, w.length() - 2, "window has a leading zero");
        String m = "poll+predict:margin_us=0150,min_sleep_us=20,max_sleep_us=50000,window=8";
        fault(m, 23, "margin_us has a leading zero");
    }

    @Test
    void park_out_of_range() {
        assertEquals("at 13: park_us=0 is out of range 1..10000, found \"0,backstop_us=1000\"",
                fault("flag:park_us=0,backstop_us=1000", 13, "park_us=0 is out of range 1..10000"));
        fault("flag:park_us=10001,backstop_us=1000", 13, "park_us=10001 is out of range 1..10000");
        WaitPlan.parse("flag:park_us=10000,backstop_us=1000");
        WaitPlan.parse("flag:park_us=1,backstop_us=1000");
    }

    @Test
    void backstop_out_of_range() {
        fault("flag:park_us=100,backstop_us=0", 29, "backstop_us=0 is out of range 1..1000000");
        fault("flag:park_us=100,backstop_us=1000001", 29, "backstop_us=1000001 is out of range 1..1000000");
        WaitPlan.parse("flag:park_us=100,backstop_us=1000000");
        WaitPlan.parse("flag:park_us=100,backstop_us=1");
    }

    @Test
    void window_out_of_range() {
        String w0 = "poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=0";
        fault(w0, w0.length() - 1, "window=0 is out of range 1..16");
        String w17 = "poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=17";
        fault(w17, w17.length() - 2, "window=17 is out of range 1..16");
        WaitPlan.parse("poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=16");
        WaitPlan.parse("poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=1");
    }

    @Test
    void sleeps_out_of_range() {
        String m = "poll+predict:margin_us=60000001,min_sleep_us=20,max_sleep_us=50000,window=8";
        fault(m, 23, "margin_us=60000001 is out of range 0..60000000");
        String x = "poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=60000001,window=8";
        fault(x, x.indexOf("60000001"), "max_sleep_us=60000001 is out of range 0..60000000");
    }

    @Test
    void min_sleep_above_max_sleep() {
        String t = "poll+predict:margin_us=150,min_sleep_us=50000,max_sleep_us=20,window=8";
        String d = fault(t, t.indexOf("max_sleep_us"), "max_sleep_us=20 is below min_sleep_us=50000");
        assertTrue(d.contains("(at " + t.indexOf("min_sleep_us") + ")"), d);
        WaitPlan.parse("poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=20,window=8");
    }

    @Test
    void trailing_garbage() {
        fault("blockx", 5, "expected the end of the plan, found \"x\"");
        fault("block;", 5, "expected the end of the plan");
        fault("block ", 5, "expected the end of the plan");
        fault("poll ", 4, "expected \"+predict:\", found \" \"");
        fault("pollx", 4, "expected \"+predict:\"");
        fault(FLAG + "x", FLAG.length(), "expected \"+predict:\"");
        fault(FLAG + "0000", FLAG.length() - 4, "backstop_us=10000000 is out of range");
        String t = "poll+" + FIXTURE + ",extra=1";
        fault(t, ("poll+" + FIXTURE).length(), "expected the end of the plan, found \",extra=1\"");
        fault("poll+" + FIXTURE + "\n", ("poll+" + FIXTURE).length(), "expected the end of the plan");
    }

    @Test
    void a_long_rest_is_cut_in_the_message() {
        String t = "nothing-like-a-plan-at-all-here";
        String d = fault(t, 0, "found \"nothing-like-a-plan-at-a…\"");
        assertTrue(d.endsWith("…\""), d);
    }

    // ---- the quote: bounded, whole code points, escaped ----

    @Test
    void a_huge_text_is_quoted_cut_with_its_length() {
        String t = "poll" + "x".repeat(1_000_000);
        ReactorException e = assertCoded(ErrorCode.InvalidPlan, () -> WaitPlan.parse(t));
        assertEquals("poll" + "x".repeat(76) + "… (1000004 chars)", e.args().get(1));
        assertEquals("at 4: expected \"+predict:\", found \"" + "x".repeat(24) + "…\"", e.args().get(2));
        assertTrue(e.getMessage().length() < 250, () -> e.getMessage().length() + " chars: " + e.getMessage());
        String digits = "flag:park_us=" + "9".repeat(1_000_000) + ",backstop_us=1000";
        ReactorException big = assertCoded(ErrorCode.InvalidPlan, () -> WaitPlan.parse(digits));
        assertEquals("at 13: park_us=" + "9".repeat(40) + "… (1000000 digits) is out of range 1..10000, found \"" + "9".repeat(24) + "…\"",
                big.args().get(2));
        assertTrue(big.getMessage().length() < 300, () -> big.getMessage().length() + " chars: " + big.getMessage());
        String atLimit = "poll" + "x".repeat(WaitPlanText.QUOTE_MAX - 4);
        assertEquals(atLimit, assertCoded(ErrorCode.InvalidPlan, () -> WaitPlan.parse(atLimit)).args().get(1), "80 chars are quoted whole");
    }

    @Test
    void a_cut_never_splits_a_surrogate_pair() {
        String face = "\uD83D\uDE00";
        String t = FLAG + "x" + face.repeat(60);
        ReactorException e = assertCoded(ErrorCode.InvalidPlan, () -> WaitPlan.parse(t));
        // The quote: 33 + 1 chars, then 23 whole pairs (46) fit in 80; the 24th would not.
        assertEquals(FLAG + "x" + face.repeat(23) + "… (" + t.length() + " chars)", e.args().get(1));
        // What was found: "x" and 11 whole pairs fit in 24; the 12th would split.
        assertEquals("at " + FLAG.length() + ": expected \"+predict:\", found \"x" + face.repeat(11) + "…\"", e.args().get(2));
        assertNoLoneSurrogate(e.getMessage());
    }

    @Test
    void control_chars_quotes_and_backslashes_are_escaped() {
        ReactorException e = assertCoded(ErrorCode.InvalidPlan, () -> WaitPlan.parse("poll\n\u0000\t\r\"\\\u007f\u2028\u200b"));
        String escaped = "\\n\\u0000\\t\\r\\\"\\\\\\u007F\\u2028\\u200B";
        assertEquals("poll" + escaped, e.args().get(1));
        // "found" holds 22 of its 24 chars: the next escape (\\u2028, 6 chars) is not cut.
        assertEquals("at 4: expected \"+predict:\", found \"" + escaped.substring(0, 22) + "…\"", e.args().get(2));
        assertTrue(e.getMessage().chars().noneMatch(Character::isISOControl), e.getMessage());
        // A lone surrogate in the text is escaped too, so the message is well-formed UTF-16.
        ReactorException lone = assertCoded(ErrorCode.InvalidPlan, () -> WaitPlan.parse("poll\uD83D"));
        assertEquals("poll\\uD83D", lone.args().get(1));
        assertNoLoneSurrogate(lone.getMessage());
        // An escape is never cut: 24 chars of "found" hold "x" and three \\u0000 escapes, not three and a piece.
        ReactorException nuls = assertCoded(ErrorCode.InvalidPlan, () -> WaitPlan.parse("pollx" + "\u0000".repeat(20)));
        assertEquals("at 4: expected \"+predict:\", found \"x" + "\\u0000".repeat(3) + "…\"", nuls.args().get(2));
    }

    static void assertNoLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else {
                assertTrue(!Character.isSurrogate(c), "a lone surrogate at " + i + " in: " + s);
            }
        }
    }

    @Test
    void huge_numbers_are_out_of_range_not_an_overflow() {
        fault("flag:park_us=99999999999999999999999999,backstop_us=1000", 13,
                "park_us=99999999999999999999999999 is out of range 1..10000");
        fault("flag:park_us=9223372036854775807,backstop_us=1000", 13, "is out of range 1..10000");
        fault("flag:park_us=9223372036854775808,backstop_us=1000", 13, "is out of range 1..10000");
        fault("flag:park_us=18446744073709551617,backstop_us=1000", 13, "is out of range 1..10000");
        fault("flag:park_us=999999999999999999,backstop_us=1000", 13, "is out of range 1..10000");
        String w = "poll+predict:margin_us=150,min_sleep_us=20,max_sleep_us=50000,window=4294967304";
        fault(w, w.indexOf("4294967304"), "window=4294967304 is out of range 1..16");
        String m = "poll+predict:margin_us=9223372036854775,min_sleep_us=20,max_sleep_us=50000,window=8";
        fault(m, 23, "is out of range 0..60000000");
    }

    @Test
    void empty_text() {
        assertEquals("at 0: expected \"block\", \"poll\" or \"flag:\", found the end of the text",
                fault("", 0, "expected \"block\", \"poll\" or \"flag:\""));
    }

    @Test
    void null_text_is_a_null_pointer_naming_text() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> WaitPlan.parse(null));
        assertEquals("text", e.getMessage());
    }

    // ---- plans built in code are in range ----

    @Test
    void a_flag_wait_out_of_range_cannot_be_built() {
        assertCoded(ErrorCode.InvalidArgument, List.of("park_ns", "0", "1..10000000"),
                () -> new WaitPlan.FlagWait(0, 1_000_000, Optional.empty()));
        assertCoded(ErrorCode.InvalidArgument, () -> new WaitPlan.FlagWait(10_000_001, 1_000_000, Optional.empty()));
        assertCoded(ErrorCode.InvalidArgument, () -> new WaitPlan.FlagWait(-1000, 1_000_000, Optional.empty()));
        assertCoded(ErrorCode.InvalidArgument, List.of("backstop_ns", "0", "1..1000000000"),
                () -> new WaitPlan.FlagWait(100_000, 0, Optional.empty()));
        assertCoded(ErrorCode.InvalidArgument, () -> new WaitPlan.FlagWait(100_000, 1_000_000_001, Optional.empty()));
        assertThrows(NullPointerException.class, () -> new WaitPlan.FlagWait(100_000, 1_000_000, null));
        assertThrows(NullPointerException.class, () -> new WaitPlan.QueryPoll(null));
    }

    @Test
    void a_deadline_plan_out_of_range_cannot_be_built() {
        assertCoded(ErrorCode.InvalidArgument, () -> new DeadlinePlan(-1000, 0, 0, 1));
        assertCoded(ErrorCode.InvalidArgument, () -> new DeadlinePlan(0, -1000, 0, 1));
        assertCoded(ErrorCode.InvalidArgument, () -> new DeadlinePlan(0, 2000, 1000, 1));
        assertCoded(ErrorCode.InvalidArgument, List.of("window", "0", "1..16"), () -> new DeadlinePlan(0, 0, 0, 0));
        assertCoded(ErrorCode.InvalidArgument, List.of("window", "17", "1..16"), () -> new DeadlinePlan(0, 0, 0, 17));
    }

    /**
     * Every plan that can be built has a label that parses back to it: the grammar is in whole
     * microseconds, so a plan stated in nanoseconds the text cannot say is refused when it is built.
     */
    @Test
    void a_plan_the_text_cannot_say_cannot_be_built() {
        assertCoded(ErrorCode.InvalidArgument, () -> new WaitPlan.FlagWait(100_500, 1_000_000, Optional.empty()));
        assertCoded(ErrorCode.InvalidArgument, () -> new WaitPlan.FlagWait(100_000, 1_000_001, Optional.empty()));
        assertCoded(ErrorCode.InvalidArgument, () -> new WaitPlan.FlagWait(1, 1_000_000, Optional.empty()));
        assertCoded(ErrorCode.InvalidArgument, () -> new DeadlinePlan(150_001, 20_000, 50_000_000, 8));
        assertCoded(ErrorCode.InvalidArgument, () -> new DeadlinePlan(150_000, 20_001, 50_000_000, 8));
        assertCoded(ErrorCode.InvalidArgument, () -> new DeadlinePlan(150_000, 20_000, 50_000_001, 8));
        long max = DeadlinePlan.SLEEP_US_MAX * 1000;
        new DeadlinePlan(max, max, max, 8);
        assertCoded(ErrorCode.InvalidArgument, () -> new DeadlinePlan(max + 1000, 0, 1000, 8));
        assertCoded(ErrorCode.InvalidArgument, () -> new DeadlinePlan(0, 0, max + 1000, 8));
        assertCoded(ErrorCode.InvalidArgument, () -> new DeadlinePlan(0, 0, Long.MAX_VALUE, 8));
    }
}
