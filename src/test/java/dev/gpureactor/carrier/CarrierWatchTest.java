package dev.gpureactor.carrier;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The watch's decisions: which carrier is blocked, what to do about it, and a look's reads of a carrier that moves during it. */
class CarrierWatchTest {
    private static final long TICK = CarrierWatch.TICK_NANOS, UNKNOWN = CarrierWatch.CPU_UNKNOWN;
    private static final OsThread.Scheduling OS_UNKNOWN = OsThread.Scheduling.UNKNOWN,
            OS_RUNNING = OsThread.Scheduling.RUNNING, OS_SLEEPING = OsThread.Scheduling.SLEEPING;

    @Test
    void a_carrier_waiting_inside_the_same_task_as_at_the_last_look_is_blocked() {
        for (long cpu : new long[] {UNKNOWN, 0, TICK}) { // a waiting carrier is blocked whatever its CPU time says
            assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.WAITING, cpu, TICK, OS_UNKNOWN));
            assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.TIMED_WAITING, cpu, TICK, OS_UNKNOWN));
            assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.BLOCKED, cpu, TICK, OS_UNKNOWN));
        }
    }

    @Test
    void a_computing_an_idle_or_a_moving_carrier_is_not() {
        assertFalse(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, TICK, TICK, OS_UNKNOWN), "computing: left alone, as the JDK leaves it");
        assertFalse(CarrierWatch.blocked(5, 5, 5, Thread.State.WAITING, UNKNOWN, TICK, OS_UNKNOWN), "between tasks: an idle carrier waits for work");
        assertFalse(CarrierWatch.blocked(5, 5, 5, Thread.State.TIMED_WAITING, UNKNOWN, TICK, OS_UNKNOWN), "an idle carrier's timed park (its keep-alive)");
        assertFalse(CarrierWatch.blocked(4, 5, 4, Thread.State.WAITING, UNKNOWN, TICK, OS_UNKNOWN), "a task begun since the last look may just be slow");
        assertFalse(CarrierWatch.blocked(-1, 1, 0, Thread.State.WAITING, UNKNOWN, TICK, OS_UNKNOWN), "the first look sees no task twice");
    }

    @Test
    void a_runnable_carrier_that_burns_no_cpu_inside_the_same_task_is_blocked_in_the_os() {
        assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, 0, TICK, OS_UNKNOWN), "in read(2): no CPU at all");
        assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, 50_000, TICK, OS_UNKNOWN), "a syscall's microseconds");
        assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, TICK / CarrierWatch.QUIET_SHARE - 1, TICK, OS_UNKNOWN),
                "just under the share");
        assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, 2 * TICK / CarrierWatch.QUIET_SHARE - 1, 2 * TICK, OS_UNKNOWN),
                "the share is of the time since the last look, not of a nominal tick (the watch overslept)");
    }

    @Test
    void a_runnable_carrier_that_computes_moves_or_whose_cpu_time_is_unknown_is_not() {
        assertFalse(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, TICK / CarrierWatch.QUIET_SHARE, TICK, OS_UNKNOWN),
                "at the share: it computes some of the tick, left alone");
        assertFalse(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, TICK / 2, TICK, OS_UNKNOWN), "a computing carrier on a busy machine");
        assertFalse(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, UNKNOWN, TICK, OS_UNKNOWN),
                "no CPU clock (or not read at the last look): today's rule, RUNNABLE is computing");
        assertFalse(CarrierWatch.blocked(4, 5, 4, Thread.State.RUNNABLE, 0, TICK, OS_UNKNOWN), "a task begun since the last look");
        assertFalse(CarrierWatch.blocked(5, 5, 5, Thread.State.RUNNABLE, 0, TICK, OS_UNKNOWN), "between tasks");
        assertFalse(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, 0, 0, OS_UNKNOWN), "no time since the last look: nothing to go by");
        assertFalse(CarrierWatch.blocked(5, 5, 4, Thread.State.TERMINATED, 0, TICK, OS_UNKNOWN), "a carrier that left");
    }

    @Test
    void a_quiet_runnable_carrier_the_kernel_has_asleep_is_blocked_and_one_it_has_running_is_starved_not_blocked() {
        assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, 0, TICK, OS_SLEEPING), "asleep in read(2)");
        assertFalse(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, 0, TICK, OS_RUNNING),
                "queued for a core on an overloaded machine: computing, so no carrier the machine has no core for");
        assertFalse(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, TICK, TICK, OS_SLEEPING),
                "it computed most of the tick and sleeps just now: a task doing I/O, not blocked");
        assertFalse(CarrierWatch.blocked(5, 5, 4, Thread.State.RUNNABLE, UNKNOWN, TICK, OS_SLEEPING), "no CPU time: today's rule");
        assertTrue(CarrierWatch.blocked(5, 5, 4, Thread.State.WAITING, UNKNOWN, TICK, OS_RUNNING),
                "a waiting carrier is blocked whatever the kernel says (it is waking up, a tick late at most)");
    }

    @Test
    void a_carrier_between_tasks_is_never_blocked_whatever_its_state() {
        // Every task a carrier runs is counted (ForkJoinCarriers wraps those the JDK hands straight to the pool).
        for (Thread.State st : Thread.State.values())
            assertFalse(CarrierWatch.blocked(5, 5, 5, st, 0, TICK, OS_SLEEPING), st + " between tasks");
    }

    @Test
    void a_blocked_carrier_is_compensated_once_while_tasks_queue_and_given_back_when_it_moves() {
        assertEquals(CarrierWatch.Action.BEGIN, CarrierWatch.decide(true, false, false, true));
        assertEquals(CarrierWatch.Action.KEEP, CarrierWatch.decide(true, false, true, true), "once per block, not every look");
        assertEquals(CarrierWatch.Action.KEEP, CarrierWatch.decide(true, false, true, false), "held while blocked, even with nothing queued now");
        assertEquals(CarrierWatch.Action.END, CarrierWatch.decide(false, false, true, true), "it moves again: the spare goes back");
        assertEquals(CarrierWatch.Action.END, CarrierWatch.decide(false, false, true, false));
    }

    @Test
    void no_compensation_without_a_queue_and_never_two_for_one_block() {
        assertEquals(CarrierWatch.Action.KEEP, CarrierWatch.decide(true, false, false, false), "blocked but nothing waits: no carrier is needed");
        assertEquals(CarrierWatch.Action.KEEP, CarrierWatch.decide(false, false, false, true), "not blocked");
        assertEquals(CarrierWatch.Action.KEEP, CarrierWatch.decide(true, true, false, true), "the JDK compensates it already");
        assertEquals(CarrierWatch.Action.END, CarrierWatch.decide(true, true, true, true), "the JDK took over: ours goes back");
    }

    @Test
    void after_a_look_that_compensated_the_next_two_come_soon_and_one_that_begins_nothing_ends_the_follow_up() {
        int f = CarrierWatch.followUpsAfter(0, true);
        assertEquals(CarrierWatch.FOLLOW_UP_NANOS, CarrierWatch.nextLookNanos(f, true), "the spare's task is looked at soon");
        f = CarrierWatch.followUpsAfter(f, false); // first sight of the spare's task: not yet seen twice
        assertEquals(CarrierWatch.FOLLOW_UP_NANOS, CarrierWatch.nextLookNanos(f, true), "a block needs a second look");
        f = CarrierWatch.followUpsAfter(f, true); // seen twice, blocked, compensated: the burst goes on
        assertEquals(CarrierWatch.FOLLOW_UP_NANOS, CarrierWatch.nextLookNanos(f, true));
        f = CarrierWatch.followUpsAfter(CarrierWatch.followUpsAfter(f, false), false);
        assertEquals(0, f);
        assertEquals(CarrierWatch.TICK_NANOS, CarrierWatch.nextLookNanos(f, true), "two looks without a compensation: the tick again");
        assertEquals(CarrierWatch.IDLE_TICK_NANOS, CarrierWatch.nextLookNanos(CarrierWatch.FOLLOW_UPS, false), "nothing admitted: idle");
        assertTrue(CarrierWatch.FOLLOW_UP_NANOS < CarrierWatch.TICK_NANOS);
    }

    /**
     * A carrier as a look reads it, each read answered by a script: a value per call, the last one
     * repeated, so a test says what changes between the look's first and second read.
     */
    private static final class Script implements CarrierWatch.Sighting {
        boolean[] jdk = {false};
        long[] finished = {0};
        Thread.State state = Thread.State.RUNNABLE;
        OsThread.Scheduling os = OS_SLEEPING;
        private int jdkReads, finishedReads;

        @Override public boolean jdkCompensating() { return jdk[Math.min(jdkReads++, jdk.length - 1)]; }
        @Override public long started() { return 1; }
        @Override public long finished() { return finished[Math.min(finishedReads++, finished.length - 1)]; }
        @Override public Thread.State state() { return state; }
        @Override public long cpuNanos() { return 0; }
        @Override public OsThread.Scheduling scheduling() { return os; }
    }

    /** A tally whose last look saw its carrier in task 1 with no CPU used since: a second sighting there is blocked. */
    private static CarrierTally seenInTaskOne() {
        CarrierTally t = new CarrierTally();
        t.watchedStarted = 1;
        t.watchedCpuNanos = 0;
        return t;
    }

    @Test
    void a_block_nobody_compensates_that_goes_on_through_the_look_is_compensated() {
        assertEquals(CarrierWatch.Action.BEGIN, CarrierWatch.look(new Script(), seenInTaskOne(), TICK, true, true),
                "in read(2) of a FIFO, asleep in the kernel, the JDK not compensating: the watch's job");
        Script waiting = new Script();
        waiting.state = Thread.State.WAITING; // pinned on a monitor
        assertEquals(CarrierWatch.Action.BEGIN, CarrierWatch.look(waiting, seenInTaskOne(), TICK, true, true));
    }

    @Test
    void a_pipe_read_the_jdk_compensated_that_ends_during_the_look_is_not_compensated_again() {
        // Compensated by the JDK when the look begins, asleep in the kernel when it asks, its compensation
        // over when it asks the JDK again: the reader woke in between and ran on.
        Script reader = new Script();
        reader.jdk = new boolean[] {true, false};
        assertEquals(CarrierWatch.Action.KEEP, CarrierWatch.look(reader, seenInTaskOne(), TICK, true, true));
        Script once = new Script();
        once.jdk = new boolean[] {false}; // what the last read alone saw: the flake in BlockingCarriersTest
        assertEquals(CarrierWatch.Action.BEGIN, CarrierWatch.look(once, seenInTaskOne(), TICK, true, false),
                "the control: the excuse read only after the evidence");
    }

    @Test
    void a_task_that_ends_during_the_look_is_not_blocked_in_it() {
        // The tally read in task 1, then the state of the carrier already waiting for its next task.
        Script done = new Script();
        done.finished = new long[] {0, 1};
        done.state = Thread.State.WAITING;
        assertEquals(CarrierWatch.Action.KEEP, CarrierWatch.look(done, seenInTaskOne(), TICK, true, true));
        Script unchecked = new Script();
        unchecked.finished = new long[] {0, 1};
        unchecked.state = Thread.State.WAITING;
        assertEquals(CarrierWatch.Action.BEGIN, CarrierWatch.look(unchecked, seenInTaskOne(), TICK, true, false),
                "the control: the tasks read only before the evidence");
    }

    @Test
    void a_held_compensation_goes_back_when_the_jdk_begins_compensating_during_the_look() {
        CarrierTally held = seenInTaskOne();
        held.watchHolds = true;
        Script s = new Script();
        s.jdk = new boolean[] {false, true};
        assertEquals(CarrierWatch.Action.END, CarrierWatch.look(s, held, TICK, true, true), "never two compensations for one block");
        CarrierTally still = seenInTaskOne();
        still.watchHolds = true;
        assertEquals(CarrierWatch.Action.KEEP, CarrierWatch.look(new Script(), still, TICK, true, true), "still blocked: kept");
    }
}
