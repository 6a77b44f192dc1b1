package dev.gpureactor.bench.service;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The correctness counts see a lost, a doubled and a wrong answer, so the smoke test's zeros mean something. */
class LedgerTest {
    @Test
    void counts_lost_doubled_and_wrong_answers() {
        Ledger l = new Ledger(5);
        for (int i = 0; i < 4; i++) assertEquals(i, l.next());
        l.served(0); l.received(0);                     // right
        l.served(1); l.served(1); l.received(1);       // the server answered twice
        l.served(2);                                    // answered, never received: lost
        l.served(3); l.received(3); l.received(3);     // received twice
        l.wrong.increment();
        Ledger.Counts c = l.count();
        assertEquals(4, c.issued());
        assertEquals(1, c.lost());
        assertEquals(2, c.doubled());
        assertEquals(1, c.wrong());
        assertFalse(c.clean());
    }

    @Test
    void ids_stop_at_the_bound_and_all_answered_once_is_clean() {
        Ledger l = new Ledger(2);
        assertEquals(0, l.next());
        assertEquals(1, l.next());
        assertEquals(-1, l.next());
        assertTrue(l.exhausted());
        for (int i = 0; i < 2; i++) { l.served(i); l.received(i); }
        assertTrue(l.known(1));
        assertFalse(l.known(2));
        assertTrue(l.count().clean());
        assertEquals(2, l.count().issued());
    }

    @Test
    void payloads_and_work_follow_the_id() {
        assertEquals(Job.expected(7), Job.expected(7));
        assertTrue(Job.expected(7) != Job.expected(8));
        for (long id = 0; id < 10_000; id++) {
            long w = Job.work(id).toNanos();
            assertTrue(w >= 500_000 && w <= 5_000_000, "work " + w + " ns out of 0.5-5 ms");
            int s = Job.stream(id, SimWork.STREAMS);
            assertTrue(s >= 0 && s < SimWork.STREAMS);
        }
    }
}
