package dev.gpureactor.loom;

import dev.gpureactor.parker.LineParker;
import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLL_Result;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Terminal state: device completion, a port failure and cancel race on one {@link GpuFuture}, with
 * joiners whose own limit passes or who are interrupted, each through its real method; exactly one
 * of the three moves wins and every caller sees that one, while a timeout or interrupt ends only
 * its own caller's wait and never changes the future.
 *
 * <p>Each state instance draws one unordered pair of moves (15 pairs, same-kind pairs included) and
 * the two actors make one move each, so one two-actor test covers every pairing:
 * <ul>
 *   <li>{@code SIGNAL}: {@link GpuFuture#signal()} (the parker's scan); reports won/lost.
 *   <li>{@code FAIL}: {@link GpuFuture#fail} (the port's error, the backstop); reports won/lost.
 *   <li>{@code CANCEL}: {@link GpuFuture#cancel}; reports its boolean (true = "this call cancelled it", as FutureTask's).
 *   <li>{@code TIMEOUT}: {@link GpuFuture#join(Duration)} with a zero limit, the real timeout path;
 *       reports "value", the winner's code, or its own {@code Timeout}.
 *   <li>{@code INTERRUPT}: {@link GpuFuture#join()} with the caller's interrupt flag set, the real
 *       interrupt path (the flag is cleared afterwards); reports "value", the winner's code, or its
 *       own {@code Interrupted}.
 * </ul>
 * The arbiter checks, against the final state: the winner is one of the two moves (and there is
 * one whenever a signal, fail or cancel was made; a future only timed out or interrupted stays
 * PENDING), each move's report agrees with it (a signal or fail says won exactly when it won,
 * exactly one cancel says true when the final state is CANCELLED and none otherwise, a joiner got the value only on
 * completion, otherwise the winner's code or its own), and the registration (made with a real
 * {@link LineParker} as the reactor makes it) was withdrawn to the parker's removals exactly once
 * when cancel won, and never otherwise. The future has a
 * readback, so a signal moves it to READY and a joiner that sees it resolves it to COMPLETED.
 *
 * <p>Results: r1 the pair, r2 the final state, r3 "agree" or what disagreed.
 */
@JCStressTest
@Description("Complete vs. fail vs. cancel, with timed-out and interrupted joiners, on one GpuFuture: one winner, seen by every caller.")
@Outcome(id = ".*, agree", expect = ACCEPTABLE,
        desc = "One winner among the moves (none if only joiners timed out or were interrupted); every caller reports it or its own end; withdraw ran iff cancel won.")
@Outcome(expect = FORBIDDEN,
        desc = "Bug prevented: two transitions both won, a caller saw a different outcome than the final state, "
                + "a caller's timeout or interrupt changed the future, the winner was not attempted, or the registration was dropped twice / not at all.")
@State
public class TerminalStateStress {
    enum Move { SIGNAL, FAIL, CANCEL, TIMEOUT, INTERRUPT }

    private static final List<Move[]> PAIRS = pairs();

    private static List<Move[]> pairs() {
        List<Move[]> out = new ArrayList<>();
        Move[] all = Move.values();
        for (int i = 0; i < all.length; i++) {
            for (int j = i; j < all.length; j++) out.add(new Move[] {all[i], all[j]});
        }
        return List.copyOf(out);
    }

    private final Move a, b;
    private final CompletionLine line = Rig.line();
    private final GpuFuture<Integer> f = Rig.future(line, 0, 1, () -> 42);
    private final ReactorException failure = new ReactorException(ErrorCode.LineClosed, "jcstress", "wait");
    /** The real parker the wait is registered with (no thread: nothing drains it, so its removals count the withdrawals). */
    private final LineParker parker = Rig.parker(line);
    private String seenA, seenB;

    public TerminalStateStress() {
        Move[] p = PAIRS.get(ThreadLocalRandom.current().nextInt(PAIRS.size()));
        a = p[0];
        b = p[1];
        Rig.registerAsReactorDoes(parker, f);
    }

    @Actor
    public void first() {
        seenA = move(a);
    }

    @Actor
    public void second() {
        seenB = move(b);
    }

    private String move(Move m) {
        return switch (m) {
            case SIGNAL -> f.signal() ? "won" : "lost";
            case FAIL -> f.fail(failure) ? "won" : "lost";
            case CANCEL -> String.valueOf(f.cancel(false));
            case TIMEOUT -> joined(true);
            case INTERRUPT -> {
                Thread.currentThread().interrupt();
                try {
                    yield joined(false);
                } finally {
                    Thread.interrupted(); // join restores the flag; jcstress's thread must not keep it
                }
            }
        };
    }

    private String joined(boolean timed) {
        try {
            Integer v = timed ? f.join(Duration.ZERO) : f.join();
            return v == 42 ? "value" : "value " + v;
        } catch (ReactorException e) {
            return e.code().name();
        }
    }

    @Arbiter
    public void arbiter(LLL_Result r) {
        int s = f.rawState();
        String state = switch (s) {
            case GpuFuture.PENDING -> "PENDING";
            case GpuFuture.READY -> "READY";
            case GpuFuture.RESOLVING -> "RESOLVING";
            case GpuFuture.COMPLETED -> "COMPLETED";
            case GpuFuture.FAILED -> "FAILED";
            case GpuFuture.CANCELLED -> "CANCELLED";
            default -> "state " + s;
        };
        r.r1 = a + "/" + b;
        r.r2 = state;
        r.r3 = verdict(s);
    }

    private String verdict(int s) {
        boolean decisive = decisive(a) || decisive(b);
        Move winner = switch (s) {
            case GpuFuture.READY, GpuFuture.COMPLETED -> Move.SIGNAL;
            case GpuFuture.FAILED -> Move.FAIL;
            case GpuFuture.CANCELLED -> Move.CANCEL;
            case GpuFuture.PENDING -> null;
            default -> Move.TIMEOUT; // no other state is terminal: reported below
        };
        if (s != GpuFuture.PENDING && winner == Move.TIMEOUT) return "state " + s + " is not a terminal state";
        if (winner == null && decisive) return "no terminal state although a signal, fail or cancel was made";
        if (winner != null && winner != a && winner != b) return "winner " + winner + " was not attempted";
        int wins = 0;
        for (int i = 0; i < 2; i++) {
            Move m = i == 0 ? a : b;
            String seen = i == 0 ? seenA : seenB;
            switch (m) {
                case SIGNAL, FAIL -> {
                    if (seen.equals("won")) {
                        if (m != winner) return m + " said won but " + winner + " won";
                        wins++;
                    } else if (!seen.equals("lost")) {
                        return m + " saw " + seen;
                    }
                }
                case CANCEL -> {
                    if (seen.equals("true")) {
                        if (winner != Move.CANCEL) return m + " said true but " + winner + " won";
                        wins++; // as FutureTask's: only the cancel that won says true
                    } else if (!seen.equals("false")) {
                        return m + " saw " + seen;
                    }
                }
                case TIMEOUT, INTERRUPT -> {
                    String own = code(m);
                    String outcome = winner == null ? null : winner == Move.SIGNAL ? "value" : code(winner);
                    if (!seen.equals(own) && !seen.equals(outcome)) return m + " saw " + seen + ", not " + own + " or " + outcome;
                }
            }
        }
        if (decisive(winner) && wins != 1) return winner + " won " + wins + " times";
        int expectWithdraws = winner == Move.CANCEL ? 1 : 0;
        int withdraws = parker.inbox.removalsSize();
        if (withdraws != expectWithdraws) return "the registration was withdrawn " + withdraws + " times";
        if (s == GpuFuture.READY && ("value".equals(seenA) || "value".equals(seenB))) {
            return "a joiner returned but the readback never settled";
        }
        return "agree";
    }

    /** A move that settles the future when it wins (the others end only their caller's wait). */
    private static boolean decisive(Move m) { return m != null && (m == Move.SIGNAL || m == Move.FAIL || m == Move.CANCEL); }

    private static String code(Move m) {
        return switch (m) {
            case FAIL -> ErrorCode.LineClosed.name();
            case CANCEL -> ErrorCode.Cancelled.name();
            case TIMEOUT -> ErrorCode.Timeout.name();
            case INTERRUPT -> ErrorCode.Interrupted.name();
            case SIGNAL -> "value";
        };
    }
}
